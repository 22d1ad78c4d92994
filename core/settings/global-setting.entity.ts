import { Column, Entity, PrimaryColumn } from "typeorm";

export type GlobalValueType = "str" | "int" | "bool" | "json";

/** A global key-value setting; the value is stored as the string that was sent. */
@Entity({ name: "global_settings" })
export class GlobalSetting {
  @PrimaryColumn({ type: "varchar" })
  key: string;

  @Column({ type: "varchar" })
  value: string;

  @Column({ name: "value_type", type: "varchar" })
  valueType: GlobalValueType;

  @Column({ type: "varchar", nullable: true })
  description: string | null;

  @Column({ name: "updated_at", type: "datetime", nullable: true })
  updatedAt: Date | null;

  @Column({ name: "updated_by", type: "integer", nullable: true })
  updatedBy: number | null;
}
