import { Elysia } from "elysia";
import { existsSync } from "node:fs";
import os from "node:os";
import { z } from "zod";
import { SDK_API_VERSION } from "../../../sdk/index.ts";
import pkg from "../../../package.json" with { type: "json" };
import { ContainerImageService } from "../../../core/system/container-image.service.ts";
import { systemOf } from "../../plugins/diagnostics.ts";
import type { HttpDeps } from "../../http/deps.ts";
import { ErrorBody, errorResponses, ValidationErrorBody } from "../../http/errors.ts";
import type { SessionPlugin } from "../../http/session.ts";
import { ContainerImageQuery, ContainerImageStatusBody, toContainerImageStatus } from "./container-image.schema.ts";

const PluginStatus = z.enum(["loaded", "disabled", "incompatible", "failed"]);

const SystemInfo = z.object({
  app_version: z.string(),
  runtime: z.string(),
  runtime_version: z.string(),
  sdk_api_version: z.number().int(),
  os_name: z.string(),
  os_version: z.string(),
  platform: z.string(),
  deployment_mode: z.enum(["docker", "local"]),
  started_at: z.string(),
  plugins: z.object({
    total: z.number().int(),
    loaded: z.number().int(),
    failed: z.number().int(),
    incompatible: z.number().int(),
    disabled: z.number().int(),
    by_kind: z.record(z.string(), z.number().int()),
  }),
  backend_dependencies: z.array(z.object({ name: z.string(), version: z.string() })),
});

const PluginDiagnostic = z.object({
  system: z.string().nullable(),
  filename: z.string().nullable(),
  error: z.string().nullable(),
  id: z.string().nullable(),
  kind: z.string().nullable(),
  name: z.string().nullable(),
  version: z.string().nullable(),
  source: z.enum(["builtin", "external"]),
  status: PluginStatus,
});

export function systemRoutes(deps: HttpDeps, session: SessionPlugin) {
  const deployment = existsSync("/.dockerenv") ? "docker" : "local";
  const dependencies = Object.entries(pkg.dependencies).map(([name, version]) => ({ name, version: String(version) }));
  const images = new ContainerImageService({
    registryUrl: deps.config.registryUrl,
    repository: deps.config.registryRepository,
  });

  return new Elysia({ prefix: "/system", tags: ["system"] })
    .use(session)
    .get("/health", () => ({ status: "ok" as const }), {
      response: { 200: z.object({ status: z.enum(["ok"]) }) },
      detail: { summary: "Liveness check (public)" },
    })
    .get("/info", () => {
      const c = deps.plugins.counts();
      return {
        app_version: pkg.version,
        runtime: "bun",
        runtime_version: Bun.version,
        sdk_api_version: SDK_API_VERSION,
        os_name: os.type(),
        os_version: os.release(),
        platform: `${process.platform}-${process.arch}`,
        deployment_mode: deployment as "docker" | "local",
        started_at: deps.startedAt.toISOString(),
        plugins: {
          total: c.total, loaded: c.loaded, failed: c.failed, incompatible: c.incompatible, disabled: c.disabled,
          by_kind: c.byKind,
        },
        backend_dependencies: dependencies,
      };
    }, {
      response: { 200: SystemInfo },
      detail: { summary: "Version, runtime, SDK API version and plugin counts (public)" },
    })
    .get("/plugin-diagnostics", () => deps.plugins.diagnostics().map((d) => ({
        system: d.kind ? systemOf(d.kind) : null,
        filename: d.path,
        error: d.reason,
        id: d.id,
        kind: d.kind,
        name: d.name,
        version: d.version,
        source: d.source,
        status: d.status,
      })), {
      auth: true,
      response: { 200: z.array(PluginDiagnostic), ...errorResponses },
      detail: { summary: "Every plugin with its outcome (loaded, disabled, incompatible, failed); `error` is the reason it did not load" },
    })
    .get("/container-image-status", async ({ query }) => toContainerImageStatus(await images.check(query.tag)), {
      auth: true,
      query: ContainerImageQuery,
      // 422 is INVALID_TAG (one message) or a query that does not match the schema (the issues).
      response: { 200: ContainerImageStatusBody, ...errorResponses, 422: z.union([ErrorBody, ValidationErrorBody]) },
      detail: {
        summary: "Whether the container image of release tag X.Y.Z is published, pending or could not be checked",
      },
    });
}
