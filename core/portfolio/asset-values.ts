/**
 * A day's value per asset in the target currency, for the allocation history (and the risk
 * adapter's asset slices): what each held asset is valued at (`quantity × price`, × the day's rate
 * when priced in another currency), then the value of assets in transit.
 *
 * The inputs are kept, not the products: the allocation history first works on double-double
 * estimates (`estimate`, double-double.ts), and only for a figure those do not decide are the
 * exact values computed from the same inputs (`exactAt`, `exact`: the Decimal chain's values,
 * exact-decimal.ts), for the assets it needs.
 */
import { type DD, ddAdd, ddMul, type Estimated, estimated } from "./double-double.ts";
import { type DecimalParts, EXACT_ZERO, plus, times } from "./exact-decimal.ts";

export class AssetValues {
  private readonly positionIds: number[] = [];
  private readonly quantities: Estimated[] = [];
  private readonly prices: Estimated[] = [];
  /** null: priced in the target currency (the value is the local one). */
  private readonly rates: (Estimated | null)[] = [];
  private readonly valueIds: number[] = [];
  private readonly values: Estimated[] = [];
  private exactValues: Map<number, DecimalParts> | null = null;

  /** How many inputs were added (positions and values). */
  get inputs(): number {
    return this.positionIds.length + this.valueIds.length;
  }

  /** The values of a map (tests and callers that have them already). */
  static of(values: ReadonlyMap<number, DecimalParts>): AssetValues {
    const out = new AssetValues();
    values.forEach((v, id) => out.addValue(id, estimated(v)));
    return out;
  }

  /**
   * A held asset valued at `quantity × price`, converted at `rate` (null: already in the target
   * currency); once per asset (the ledger's held assets are a Map's keys).
   */
  addPosition(assetId: number, quantity: Estimated, price: Estimated, rate: Estimated | null): void {
    this.positionIds.push(assetId);
    this.quantities.push(quantity);
    this.prices.push(price);
    this.rates.push(rate);
  }

  /** A value in the target currency added to the asset's (assets in transit). */
  addValue(assetId: number, value: Estimated): void {
    this.valueIds.push(assetId);
    this.values.push(value);
  }

  /**
   * The exact value of the `i`-th asset of {@link estimate}'s order, computed alone when no asset
   * is in transit (a day's text usually needs the exact values of a few assets, not all).
   */
  exactAt(i: number): DecimalParts {
    if (this.valueIds.length > 0) return (this.exactList ??= [...this.exact().values()])[i]!;
    const list = this.exactList ??= [];
    return list[i] ??= this.positionValue(i);
  }
  private exactList: DecimalParts[] | null = null;

  /** Position `i`'s exact value: `quantity × price`, × the rate unless in the target currency. */
  private positionValue(i: number): DecimalParts {
    const local = times(this.quantities[i]!.parts, this.prices[i]!.parts);
    const rate = this.rates[i]!;
    return rate === null ? local : times(local, rate.parts);
  }

  /** The exact values by asset, in the order assets were first added. */
  exact(): Map<number, DecimalParts> {
    if (this.exactValues) return this.exactValues;
    const out = new Map<number, DecimalParts>();
    for (let i = 0; i < this.positionIds.length; i++) {
      const value = this.positionValue(i);
      const before = out.get(this.positionIds[i]!);
      out.set(this.positionIds[i]!, before === undefined ? value : plus(before, value));
    }
    for (let i = 0; i < this.valueIds.length; i++) {
      const id = this.valueIds[i]!;
      out.set(id, plus(out.get(id) ?? EXACT_ZERO, this.values[i]!.parts));
    }
    return this.exactValues = out;
  }

  /**
   * Estimates of the same values in the same order (`ids[i]` is valued at `values[i]`), each within
   * 16 operations' error (double-double.ts) of the Decimal chain's value, relative to `sizes[i]`.
   */
  estimate(): { ids: number[]; values: DD[]; sizes: number[] } {
    const n = this.positionIds.length;
    const ids = this.positionIds.slice();
    const values = new Array<DD>(n);
    // The sum of the sizes of what makes each value (more than the value when they cancel).
    const sizes = new Array<number>(n);
    for (let i = 0; i < n; i++) {
      const local = ddMul(this.quantities[i]!.dd, this.prices[i]!.dd);
      const rate = this.rates[i]!;
      const v = rate === null ? local : ddMul(local, rate.dd);
      values[i] = v;
      sizes[i] = Math.abs(v.hi) * 1.01;
    }
    // Assets in transit: added to the asset's value.
    if (this.valueIds.length > 0) {
      const index = new Map<number, number>();
      const merged: number[] = [];
      const mergedValues: DD[] = [];
      const mergedSizes: number[] = [];
      const put = (id: number, v: DD, size: number) => {
        const i = index.get(id);
        if (i === undefined) {
          index.set(id, merged.length);
          merged.push(id);
          mergedValues.push(v);
          mergedSizes.push(size);
        } else {
          mergedValues[i] = ddAdd(mergedValues[i]!, v);
          mergedSizes[i]! += size;
        }
      };
      for (let i = 0; i < n; i++) put(ids[i]!, values[i]!, sizes[i]!);
      for (let i = 0; i < this.valueIds.length; i++) {
        const v = this.values[i]!.dd;
        put(this.valueIds[i]!, v, Math.abs(v.hi) * 1.01);
      }
      return { ids: merged, values: mergedValues, sizes: mergedSizes };
    }
    return { ids, values, sizes };
  }
}
