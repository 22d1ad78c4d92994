/** Stylesheets imported for their side effect; Bun's HTML bundler emits them as CSS chunks. */
declare module "*.css";
