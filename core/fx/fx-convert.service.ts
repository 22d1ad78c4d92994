import { inject, injectable } from "tsyringe";
import { NotFoundError } from "../errors/domain-error.ts";
import { Database } from "../db/database.ts";
import { managerReader } from "../db/sql-reader.ts";
import { convertAll, type ConvertInput, type ConvertOutput } from "./fx-convert.ts";

export { hasPrivateRates, MAX_CONVERT_DAYS, pairChains, rateSeriesLoader } from "./fx-convert.ts";
export type { ConvertInput, ConvertOutput, ConvertResult, RateRow } from "./fx-convert.ts";

/**
 * Conversion on the request thread's reader (AI-export components): each day of each item's range,
 * through the pair's routes by priority, then the caller's private rates (core/fx/fx-convert.ts).
 * `POST /fx/currencies/convert` runs the same code in the worker pool.
 */
@injectable()
export class FxConvertService {
  constructor(@inject(Database) private readonly db: Database) {}

  /**
   * `user`: whose private rates fill the days the shared routes cannot convert (null: shared data
   * only). Throws NotFoundError when items were given and every conversion failed.
   */
  async convert(items: readonly ConvertInput[], user: number | null = null): Promise<ConvertOutput> {
    const { errors, failed, results } = await convertAll(managerReader(this.db.reads), items, user);
    if (failed) throw new NotFoundError("FX_RATE_NOT_FOUND", "No conversion could be made", { errors });
    return { errors, results };
  }
}
