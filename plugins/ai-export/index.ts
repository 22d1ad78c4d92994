/** The AI-export datasets (one `ai-export-dataset` plugin each), composed from host components. */
export { aiExportDatasetPlugins } from "./datasets.ts";
