/**
 * Allocation tools: the PAC allocator and the portfolio rebalancer share one exact solver
 * (allocate.calc.ts), so they live in one folder and export two plugins.
 */
export { pacAllocatorPlugin } from "./pac-allocator.ts";
export { portfolioRebalancerPlugin } from "./portfolio-rebalancer.ts";
