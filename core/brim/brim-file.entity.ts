import { Column, Entity, PrimaryColumn } from "typeorm";

export type BrimFileStatus = "uploaded" | "parsed" | "failed";

/** An uploaded broker report; the bytes live under DATA_DIR/brim/<id>, never under the user's name. */
@Entity({ name: "brim_files" })
export class BrimFile {
  /** A random UUID, also the stored file's name. */
  @PrimaryColumn({ type: "varchar", length: 36 })
  id: string;

  @Column({ name: "broker_id", type: "integer" })
  brokerId: number;

  @Column({ name: "uploaded_by_user_id", type: "integer", nullable: true })
  uploadedByUserId: number | null;

  /** The client's name, cleaned; metadata only. */
  @Column({ type: "varchar" })
  filename: string;

  /** Sniffed from the content, never taken from the client. */
  @Column({ name: "content_type", type: "varchar" })
  contentType: string;

  @Column({ name: "size_bytes", type: "integer" })
  sizeBytes: number;

  @Column({ type: "varchar" })
  sha256: string;

  @Column({ type: "varchar" })
  status: BrimFileStatus;

  /** JSON array of plugin codes, best first (detection at upload). */
  @Column({ name: "compatible_plugins", type: "varchar", default: "[]" })
  compatiblePlugins: string;

  @Column({ name: "error_message", type: "varchar", nullable: true })
  errorMessage: string | null;

  @Column({ name: "parsed_plugin_code", type: "varchar", nullable: true })
  parsedPluginCode: string | null;

  @Column({ name: "parsed_plugin_version", type: "varchar", nullable: true })
  parsedPluginVersion: string | null;

  @Column({ name: "uploaded_at", type: "datetime" })
  uploadedAt: Date;

  @Column({ name: "processed_at", type: "datetime", nullable: true })
  processedAt: Date | null;
}
