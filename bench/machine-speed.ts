/**
 * A fixed single-thread workload like a report's arithmetic (34-digit decimal.js products and
 * sums, BigInt products rounded by division, short strings), timed before a bench: the same code
 * on the same machine takes the same time unless the machine itself is slower (a busy host, CPU
 * shares of a virtual machine). The 2-core machines this project is measured on ran reports ~2×
 * slower on some days than on others with a load average under 1, so figures of different runs
 * compare only with this time beside them (docs/portfolio.md "Performance").
 */
import { Decimal } from "../core/money/decimal.ts";

function work(): number {
  let d = new Decimal("1.0000000000000000000000000000000001");
  let s = new Decimal(0);
  const rate = new Decimal(1).div("1.0837");
  let b = 0n;
  let text = 0;
  for (let i = 0; i < 40_000; i++) {
    d = d.times(rate).plus(i % 7);
    s = s.plus(d.toDecimalPlaces(10));
    const m = BigInt(123456789 + i) * 98765432109876543210987654321n;
    b += m / 100000000000000000n;
    text += String(i * 1.5).length;
  }
  return s.toNumber() + Number(b % 1000n) + text;
}

/** Milliseconds of the workload: the fastest of `rounds` (after one untimed run to compile it). */
export function machineSpeedMs(rounds = 5): number {
  work();
  let best = Infinity;
  for (let i = 0; i < rounds; i++) {
    const t = performance.now();
    work();
    best = Math.min(best, performance.now() - t);
  }
  return best;
}

if (import.meta.main) console.log(`machine speed: reference workload ${machineSpeedMs().toFixed(0)} ms`);
