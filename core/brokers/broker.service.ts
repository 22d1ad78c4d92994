import { inject, injectable } from "tsyringe";
import { type EntityManager, In } from "typeorm";
import { Database } from "../db/database.ts";
import { declareChange } from "../db/data-changes.ts";
import { ConflictError } from "../errors/domain-error.ts";
import { Decimal } from "../money/decimal.ts";
import { type BalanceRow, findNegativeBalances } from "../transactions/balances.calc.ts";
import { Transaction } from "../transactions/transaction.entity.ts";
import { BrokerAccess, type BrokerRole } from "./broker-access.entity.ts";
import { BrokerAccessService, brokerNotFound } from "./broker-access.service.ts";
import { Broker } from "./broker.entity.ts";
import { formatShare } from "./share.ts";

export interface BrokerFields {
  allowAssetShorting?: boolean;
  allowCashOverdraft?: boolean;
  defaultImportPlugin?: string | null;
  description?: string | null;
  iconUrl?: string | null;
  isActive?: boolean;
  name?: string;
  openedAt?: string | null;
  portalUrl?: string | null;
}

export interface NewBroker extends BrokerFields {
  initialBalances?: { amount: string; code: string }[];
  name: string;
}

export interface BrokerView {
  broker: Broker;
  role: BrokerRole;
  share: string;
}

/** A DEPOSIT booked from an initial balance: dated `opened_at` of the broker, else the day of creation. */
export interface CreatedDeposit {
  readonly amount: string;
  readonly currency: string;
  readonly date: string;
  readonly transactionId: number;
}

export type CreateOutcome =
  | { brokerId: number; deposits: CreatedDeposit[]; depositsCreated: number; name: string; success: true }
  | { error: string; name: string; success: false };

/** Brokers as their users see them: existence and contents only through access rows. */
@injectable()
export class BrokerService {
  constructor(
    @inject(Database) private readonly db: Database,
    @inject(BrokerAccessService) private readonly access: BrokerAccessService,
  ) {}

  /** Every broker the user has an access row for, with their role and share, by name. */
  async list(userId: number): Promise<BrokerView[]> {
    const rows = await this.db.reads.findBy(BrokerAccess, { userId });
    if (rows.length === 0) return [];
    const brokers = await this.db.reads.findBy(Broker, { id: In(rows.map((r) => r.brokerId)) });
    const byId = new Map(rows.map((r) => [r.brokerId, r]));
    return brokers
      .map((broker) => ({ broker, role: byId.get(broker.id)!.role, share: formatShare(byId.get(broker.id)!.sharePercentage) }))
      .sort((a, b) => a.broker.name.localeCompare(b.broker.name) || a.broker.id - b.broker.id);
  }

  async get(userId: number, brokerId: number): Promise<BrokerView> {
    const row = await this.access.require(userId, brokerId, "VIEWER");
    const broker = await this.db.reads.findOneBy(Broker, { id: brokerId });
    if (!broker) throw brokerNotFound(brokerId);
    return { broker, role: row.role, share: formatShare(row.sharePercentage) };
  }

  /**
   * Creates each valid item with the caller as OWNER (share 1) and one DEPOSIT per positive
   * initial balance, in one write. A name the caller already uses (case-insensitive, among the
   * brokers they can see) is refused per item; other users' broker names are never consulted.
   */
  create(userId: number, items: NewBroker[], today: string): Promise<CreateOutcome[]> {
    return this.db.write(async (tx) => {
      const taken = new Set((await this.visibleNames(tx, userId)).map((n) => n.toLowerCase()));
      const outcomes: CreateOutcome[] = [];
      for (const item of items) {
        const name = item.name.trim();
        if (taken.has(name.toLowerCase())) {
          outcomes.push({ success: false, name, error: `You already have a broker named '${name}'` });
          continue;
        }
        taken.add(name.toLowerCase());
        const broker = await tx.save(Broker, Object.assign(new Broker(), fieldsOf({ ...item, name })));
        await tx.insert(BrokerAccess, { userId, brokerId: broker.id, role: "OWNER", sharePercentage: formatShare(1) });
        const deposits: CreatedDeposit[] = [];
        for (const b of (item.initialBalances ?? []).filter((b) => new Decimal(b.amount).gt(0))) {
          const deposit = { date: item.openedAt ?? today, amount: new Decimal(b.amount).toFixed(), currency: b.code };
          const inserted = await tx.insert(Transaction, {
            brokerId: broker.id, type: "DEPOSIT", date: deposit.date, quantity: "0",
            amount: deposit.amount, currency: deposit.currency, description: "Initial balance",
          });
          deposits.push({ ...deposit, transactionId: Number(inserted.identifiers[0]?.id) });
        }
        outcomes.push({ success: true, brokerId: broker.id, name, deposits, depositsCreated: deposits.length });
      }
      const created = outcomes.flatMap((o) => o.success ? [o.brokerId] : []);
      if (created.length > 0) declareChange(tx, { kind: "brokers", ids: created });
      return outcomes;
    });
  }

  /**
   * EDITOR or OWNER: name, icon, description and settings. Turning overdraft or shorting off
   * re-validates the broker's balances over time; a balance that would be negative refuses the
   * whole edit (409 BALANCE_NEGATIVE, nothing changed).
   */
  update(userId: number, brokerId: number, fields: BrokerFields): Promise<{ broker: Broker; validationTriggered: boolean }> {
    return this.db.write(async (tx) => {
      await this.access.require(userId, brokerId, "EDITOR", tx);
      declareChange(tx, { kind: "brokers", ids: [brokerId] });
      const broker = await tx.findOneByOrFail(Broker, { id: brokerId });
      if (fields.name !== undefined) {
        const name = fields.name.trim();
        const clash = (await this.visibleNames(tx, userId, brokerId)).some((n) => n.toLowerCase() === name.toLowerCase());
        if (clash) throw new ConflictError("BROKER_NAME_TAKEN", `You already have a broker named '${name}'`);
      }
      const validationTriggered = (broker.allowCashOverdraft && fields.allowCashOverdraft === false)
        || (broker.allowAssetShorting && fields.allowAssetShorting === false);
      Object.assign(broker, fieldsOf(fields));
      const saved = await tx.save(Broker, broker);
      if (validationTriggered) await assertBalancesNonNegative(tx, saved);
      return { broker: saved, validationTriggered };
    });
  }

  /** OWNER only: the broker with its transactions and access rows (BRIM files are the caller's to remove). */
  delete(userId: number, brokerId: number): Promise<{ transactionsDeleted: number }> {
    return this.db.write(async (tx) => {
      await this.access.require(userId, brokerId, "OWNER", tx);
      declareChange(tx, { kind: "brokers", ids: [brokerId] });
      return deleteBroker(tx, brokerId);
    });
  }

  private async visibleNames(tx: EntityManager, userId: number, exceptId?: number): Promise<string[]> {
    const ids = [...(await this.access.roles(userId, "VIEWER", tx)).keys()].filter((id) => id !== exceptId);
    if (ids.length === 0) return [];
    return (await tx.find(Broker, { select: { name: true }, where: { id: In(ids) } })).map((b) => b.name);
  }
}

async function assertBalancesNonNegative(tx: EntityManager, broker: Broker): Promise<void> {
  const rows = await tx.query(
    `SELECT date, asset_id, quantity, amount, currency FROM transactions WHERE broker_id = ? ORDER BY date, id`, [broker.id],
  ) as BalanceRow[];
  const violations = findNegativeBalances(rows, { cash: !broker.allowCashOverdraft, assets: !broker.allowAssetShorting });
  if (violations.length === 0) return;
  const first = violations[0]!;
  const what = first.kind === "cash" ? `cash in ${first.currency}` : `the quantity of asset ${first.assetId}`;
  throw new ConflictError("BALANCE_NEGATIVE", `Without overdraft or shorting, ${what} would be negative (${first.balance}) on ${first.date}`, {
    violations: violations.map((v) => (v.kind === "cash"
      ? { kind: v.kind, date: v.date, currency: v.currency, balance: v.balance }
      : { kind: v.kind, date: v.date, asset_id: v.assetId, balance: v.balance })),
  });
}

/** Deletes a broker inside a write: its transactions first (pair partners elsewhere are unlinked), then the row. */
export async function deleteBroker(tx: EntityManager, brokerId: number): Promise<{ transactionsDeleted: number }> {
  const { affected } = await tx.delete(Transaction, { brokerId });
  await tx.delete(Broker, { id: brokerId });
  return { transactionsDeleted: affected ?? 0 };
}

function fieldsOf(f: BrokerFields): Partial<Broker> {
  const out: Partial<Broker> = {};
  if (f.name !== undefined) out.name = f.name.trim();
  if (f.description !== undefined) out.description = f.description || null;
  if (f.portalUrl !== undefined) out.portalUrl = f.portalUrl || null;
  if (f.iconUrl !== undefined) out.iconUrl = f.iconUrl || null;
  if (f.defaultImportPlugin !== undefined) out.defaultImportPlugin = f.defaultImportPlugin || null;
  if (f.allowCashOverdraft !== undefined) out.allowCashOverdraft = f.allowCashOverdraft;
  if (f.allowAssetShorting !== undefined) out.allowAssetShorting = f.allowAssetShorting;
  if (f.isActive !== undefined) out.isActive = f.isActive;
  if (f.openedAt !== undefined) out.openedAt = f.openedAt;
  return out;
}
