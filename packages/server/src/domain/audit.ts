import { actorLabel, type DomainContext } from "./context.ts";

export interface AuditRecord {
  action: string;
  subject?: string;
  details?: Record<string, unknown>;
}

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
    subject: record.subject ?? null,
    details: JSON.stringify(record.details ?? {}),
    request_id: ctx.requestId ?? null,
  };
}
