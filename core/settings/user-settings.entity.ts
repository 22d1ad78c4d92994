import { Column, Entity, PrimaryColumn, UpdateDateColumn } from "typeorm";

/** One typed settings row per user (spec: Per-user settings). */
@Entity({ name: "user_settings" })
export class UserSettings {
  @PrimaryColumn({ name: "user_id", type: "integer" })
  userId: number;

  @Column({ name: "base_currency", type: "varchar" })
  baseCurrency: string;

  @Column({ type: "varchar" })
  language: string;

  @Column({ type: "varchar" })
  theme: string;

  @Column({ name: "avatar_url", type: "varchar", nullable: true })
  avatarUrl: string | null;

  @UpdateDateColumn({ name: "updated_at", type: "datetime" })
  updatedAt: Date;
}
