import { inject, injectable } from "tsyringe";
import { NotFoundError } from "../errors/domain-error.ts";
import { Database } from "../db/database.ts";
import { managerReader } from "../db/sql-reader.ts";
import { convertAll, type ConvertInput, type ConvertOutput } from "./fx-convert.ts";

export { MAX_CONVERT_DAYS, pairChains, rateSeriesLoader } from "./fx-convert.ts";
export type { ConvertInput, ConvertOutput, ConvertResult, RateRow } from "./fx-convert.ts";

/**
 * Conversion on the request thread's reader (AI-export components): each day of each item's range,
 * through the pair's routes by priority (core/fx/fx-convert.ts). `POST /fx/currencies/convert` runs
 * the same code in the worker pool.
 */
@injectable()
export class FxConvertService {
  constructor(@inject(Database) private readonly db: Database) {}

  /** Throws NotFoundError when items were given and every conversion failed. */
  async convert(items: readonly ConvertInput[]): Promise<ConvertOutput> {
    const { errors, failed, results } = await convertAll(managerReader(this.db.reads), items);
    if (failed) throw new NotFoundError("FX_RATE_NOT_FOUND", "No conversion could be made", { errors });
    return { errors, results };
  }
}
