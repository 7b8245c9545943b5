/**
 * The SCA approaches of Berlin Group NextGenPSD2, as settings and the API name them: the three of
 * the ASPSP-SCA-Approach header, and OAuth2 as an integrated approach (which that header calls
 * REDIRECT, since the PSU's browser is redirected to the bank's authorisation server).
 */
export const SCA_APPROACHES = ["redirect", "embedded", "decoupled", "oauth"] as const;
export type ScaApproach = typeof SCA_APPROACHES[number];

export function isScaApproach(name: string): name is ScaApproach {
  return (SCA_APPROACHES as readonly string[]).includes(name);
}

/** The approaches whose PSU authenticates on the bank's own pages in a browser. */
export const BROWSER_APPROACHES: readonly ScaApproach[] = ["redirect", "oauth"];
