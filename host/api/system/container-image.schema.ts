import { z } from "zod";
import type { ContainerImageStatus } from "../../../core/system/container-image.service.ts";

/** The tag is only required here; its X.Y.Z form is checked by the service (422 INVALID_TAG). */
export const ContainerImageQuery = z.object({
  tag: z.string().meta({ description: "Release tag, stable `X.Y.Z` only", example: "1.2.3" }),
});

const checked = {
  tag: z.string(),
  image: z.string().meta({ description: "`{registry host}/{repository}:{tag}`" }),
};
const checkedAt = { checked_at: z.string().meta({ description: "ISO 8601 time of the check" }) };

// Each member pins its discriminator with a single-value enum, never const (the OpenAPI description pins discriminators that way).
export const ContainerImagePublished = z.object({ ...checked, status: z.enum(["published"]), ...checkedAt })
  ;
export const ContainerImagePending = z.object({ ...checked, status: z.enum(["pending"]), ...checkedAt })
  ;
export const ContainerImageError = z.object({
  ...checked,
  status: z.enum(["error"]),
  error_code: z.enum(["image-auth-request-failed", "image-request-failed"]),
  detail: z.string(),
  ...checkedAt,
});

export const ContainerImageStatusBody = z.discriminatedUnion("status", [
  ContainerImagePublished, ContainerImagePending, ContainerImageError,
]);
export type ContainerImageStatusBody = z.infer<typeof ContainerImageStatusBody>;

export function toContainerImageStatus(s: ContainerImageStatus): ContainerImageStatusBody {
  const checked_at = s.checkedAt.toISOString();
  if (s.status === "error") {
    return { tag: s.tag, image: s.image, status: "error", error_code: s.errorCode, detail: s.detail, checked_at };
  }
  return { tag: s.tag, image: s.image, status: s.status, checked_at };
}
