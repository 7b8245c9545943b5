/** The three SCA approaches of Berlin Group NextGenPSD2, as settings and the API name them. */
export const SCA_APPROACHES = ["redirect", "embedded", "decoupled"] as const;
export type ScaApproach = typeof SCA_APPROACHES[number];

export function isScaApproach(name: string): name is ScaApproach {
  return (SCA_APPROACHES as readonly string[]).includes(name);
}
