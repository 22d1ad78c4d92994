import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from "typeorm";

@Entity({ name: "users" })
export class User {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: "varchar" })
  username: string;

  @Column({ type: "varchar" })
  email: string;

  @Column({ name: "password_hash", type: "varchar" })
  passwordHash: string;

  @Column({ name: "is_active", type: "boolean", default: true })
  isActive: boolean;

  @Column({ name: "is_superuser", type: "boolean", default: false })
  isSuperuser: boolean;

  /** Raised to end every session issued before (password change or reset, admin); tokens carry it. */
  @Column({ name: "session_epoch", type: "integer", default: 0 })
  sessionEpoch: number;

  @CreateDateColumn({ name: "created_at", type: "datetime" })
  createdAt: Date;
}
