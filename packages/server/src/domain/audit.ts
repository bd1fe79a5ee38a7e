import { actorLabel, type DomainContext } from "./context.ts";

export interface AuditRecord {
  action: string;
  subject?: string;
  details?: Record<string, unknown>;
}

/**
 * What one row may keep (docs/design/security.md#security): rows are also written for anonymous callers
 * (refused credentials), so nothing a caller sends may make one large. Strings are cut to 256
 * characters; details over 2 KiB once cut keep only a note of their size.
 */
export const AUDIT_STRING_MAX = 256;
export const AUDIT_DETAILS_MAX = 2048;

/**
 * Appends one row to the audit log, in the caller's transaction so that the row exists exactly
 * when the change it describes does. Secrets never go into `details`.
 */
export async function recordAudit(ctx: DomainContext, record: AuditRecord): Promise<void> {
  await ctx.db.insertInto("audit_events").values(auditRow(ctx, record)).execute();
}

/** The audit row of a record, for a statement that writes it together with the change itself. */
export function auditRow(ctx: DomainContext, record: AuditRecord) {
  return {
    created_at: ctx.clock.now(),
    actor: actorLabel(ctx.actor),
    action: record.action,
    subject: record.subject === undefined ? null : cut(record.subject),
    details: boundedDetails(record.details ?? {}),
    request_id: ctx.requestId ?? null,
  };
}

function boundedDetails(details: Record<string, unknown>): string {
  const json = JSON.stringify(details, (_key, value: unknown) =>
    typeof value === "string" ? cut(value) : value,
  );
  return json.length <= AUDIT_DETAILS_MAX ? json : JSON.stringify({ truncated: true, length: json.length });
}

function cut(text: string): string {
  return text.length <= AUDIT_STRING_MAX ? text : `${text.slice(0, AUDIT_STRING_MAX - 1)}…`;
}
