// Types for the untyped numeric libraries the risk plugins use (only the members called).
declare module "jstat" {
  const jstat: { normal: { inv(p: number, mean: number, std: number): number } };
  export default jstat;
}

declare module "quadprog" {
  /** R's quadprog port: 1-indexed arrays (index 0 unused); constraints are columns of Amat, equalities first. */
  export function solveQP(
    Dmat: number[][], dvec: number[], Amat: number[][], bvec: number[], meq?: number, factorized?: number[],
  ): { solution: number[]; value: number[]; message: string; iterations: number[]; unconstrained_solution: number[] };
}
