import type { EventType } from "@skinmarket/contract";

/** An event ready for the log: its owner (none: public), its goods, and the record it carries. */
export interface NewEvent {
  type: EventType;
  user_id: number | null;
  goods_id: number | null;
  data: unknown;
}
