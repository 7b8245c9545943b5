/**
 * The PSU's pages on their listener: the redirect authorisation pages (and the OAuth
 * interactions), the consent dashboard and the bank app, with one login throttle.
 */
import type { FastifyInstance } from "fastify";
import type { Config } from "../config.js";
import { createPsuDashboard } from "../domain/dashboard/dashboard.js";
import type { Deps } from "../domain/deps.js";
import { createAuthorisations } from "../domain/sca/authorisation.js";
import { createDecoupled } from "../domain/sca/decoupled.js";
import { createOAuthAuthorisations } from "../domain/sca/oauth.js";
import { createStatisticsReport } from "../domain/statistics/report.js";
import { createRateLimit } from "../lib/rate-limit.js";
import type { OAuthServer } from "../oauth/server.js";
import { appPages } from "../sca/app.js";
import { dashboardPages } from "../sca/dashboard.js";
import { loadBankLogo } from "../sca/logo.js";
import { scaPages } from "../sca/pages.js";
import { statisticsPages } from "../sca/statistics.js";
import { psuPagesPlugin } from "../sca/plugin.js";
import type { ScaRedirects } from "../sca/redirect.js";

export async function psuPages(
  auth: FastifyInstance, config: Config, deps: Deps, redirects: ScaRedirects,
  oauth: { server: OAuthServer; authUrl: () => string } | null,
): Promise<void> {
  const loginThrottle = createRateLimit(
    config.loginAttemptsPerIpPerMinute, 60_000, () => deps.clock.now().getTime());
  const authHost = new URL(config.publicAuthUrl).hostname;
  const localHost = ["localhost", "127.0.0.1", "[::1]"].includes(authHost);
  psuPagesPlugin(auth, { hsts: !localHost });
  const links = {
    imprint: config.bankImprintUrl, privacy: config.bankPrivacyUrl, help: config.bankHelpUrl,
    passwordReset: config.psuPasswordResetUrl, loginHelp: config.psuLoginHelpUrl,
  };
  scaPages(auth, {
    authorisations: createAuthorisations(deps), redirects, bankName: config.bankName,
    sandbox: config.mode === "sandbox",
    logo: await loadBankLogo(config.bankLogoFile), loginThrottle,
    loginBlockSeconds: config.loginBlockSeconds, links, timeZone: config.timeZone,
    idleSeconds: config.scaSessionIdleSeconds,
    oauth: oauth ? {
      oauth: createOAuthAuthorisations(deps), interactions: oauth.server, authUrl: oauth.authUrl,
    } : undefined,
  });
  const dashboard = createPsuDashboard(deps, config.permissionHistoryDays);
  dashboardPages(auth, {
    dashboard, bankName: config.bankName, loginThrottle,
    loginBlockSeconds: config.loginBlockSeconds, links, timeZone: config.timeZone,
  });
  statisticsPages(auth, { report: createStatisticsReport(deps), clock: deps.clock,
    bankName: config.bankName, links });
  appPages(auth, {
    decoupled: createDecoupled(deps), bankName: config.bankName, links,
    loginBlockSeconds: config.loginBlockSeconds, sandbox: config.mode === "sandbox",
  });
}
