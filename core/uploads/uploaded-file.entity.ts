import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from "typeorm";

/** A generic uploaded file; the bytes live under DATA_DIR/uploads/<storedName>. */
@Entity({ name: "uploaded_files" })
export class UploadedFile {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: "user_id", type: "integer", nullable: true })
  userId: number | null;

  @Column({ name: "original_name", type: "varchar" })
  originalName: string;

  @Column({ name: "stored_name", type: "varchar" })
  storedName: string;

  /** Sniffed from the content, never taken from the client. */
  @Column({ name: "content_type", type: "varchar" })
  contentType: string;

  @Column({ name: "size_bytes", type: "integer" })
  sizeBytes: number;

  @Column({ type: "varchar" })
  sha256: string;

  @Column({ type: "varchar", nullable: true })
  description: string | null;

  @CreateDateColumn({ name: "created_at", type: "datetime" })
  createdAt: Date;
}
