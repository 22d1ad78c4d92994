import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from "typeorm";

export interface ChainStep {
  from: string;
  provider: string;
  to: string;
}

/** A configured conversion route of a pair (`base < quote`); priority 1 is primary, MANUAL is 999. */
@Entity({ name: "fx_routes" })
export class FxRoute {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: "varchar" })
  base: string;

  @Column({ type: "varchar" })
  quote: string;

  @Column({ type: "integer" })
  priority: number;

  /** JSON array of {@link ChainStep}. */
  @Column({ name: "chain_steps", type: "varchar" })
  chainSteps: string;

  @CreateDateColumn({ name: "created_at", type: "datetime" })
  createdAt: Date;

  @UpdateDateColumn({ name: "updated_at", type: "datetime" })
  updatedAt: Date;
}
