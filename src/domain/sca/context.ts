/** What an authorisation's session is about: the subject the PSU decides on, and its TPP. */
import type { Authorisation, ScaSession } from "./model.js";
import type { ScaSubject, SubjectView } from "./subject.js";

export interface SessionContext {
  session: ScaSession;
  authorisation: Authorisation;
  subject: ScaSubject;
  /** The subject's view, which the pages render. */
  resource: SubjectView;
  tppName: string;
  redirectUri: string;
  nokRedirectUri: string | null;
}
