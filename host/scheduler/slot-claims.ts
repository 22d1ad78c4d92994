import type { Database } from "../../core/db/database.ts";
import type { SlotClaim } from "./scheduler.ts";

/** Claims older than this are removed when a new one is written. */
const KEEP_DAYS = 7;

/**
 * Slot claims in `scheduler_claims` (migration 1795000008500): each process inserts (job, slot)
 * with its own token, ignoring a row already there, then reads who owns it. The primary key makes
 * exactly one insert win on SQLite and PostgreSQL alike, so a job runs once per slot across every
 * process on the database.
 */
export function slotClaims(db: Database, owner: string = crypto.randomUUID()): SlotClaim {
  return (job, slot) => db.write(async (tx) => {
    const now = new Date();
    const key = { job, slot: slot.toISOString() };
    await tx.createQueryBuilder().delete().from("scheduler_claims")
      .where("claimed_at < :cutoff", { cutoff: new Date(now.getTime() - KEEP_DAYS * 86_400_000).toISOString() }).execute();
    await tx.createQueryBuilder().insert().into("scheduler_claims")
      .values({ ...key, claimed_at: now.toISOString(), owner }).orIgnore().updateEntity(false).execute();
    const row = await tx.createQueryBuilder().select("owner").from("scheduler_claims", "c")
      .where("c.job = :job AND c.slot = :slot", key).getRawOne<{ owner: string }>();
    return row?.owner === owner;
  });
}
