import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from "typeorm";

/** An asset. Minimal until the assets area lands: what transactions need. */
@Entity({ name: "assets" })
export class Asset {
  @PrimaryGeneratedColumn()
  id: number;

  /** Any string (SPEC: stored as sent). */
  @Column({ type: "varchar" })
  name: string;

  @Column({ type: "varchar" })
  currency: string;

  /** False means archived. */
  @Column({ type: "boolean", default: true })
  active: boolean;

  @CreateDateColumn({ name: "created_at", type: "datetime" })
  createdAt: Date;

  @UpdateDateColumn({ name: "updated_at", type: "datetime" })
  updatedAt: Date;
}
