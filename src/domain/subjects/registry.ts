/**
 * The subjects a PSU authorises, by the authorisation's resourceType (sca/subject.ts): the app
 * hands them to the SCA channels with its deps. A new resource a PSU authorises is a folder that
 * implements ScaSubject and one line here.
 */
import { BASKET_SUBJECT } from "../basket/subject.js";
import { CONSENT_SUBJECT } from "../consent/subject.js";
import type { ScaSubjects } from "../deps.js";
import { CANCELLATION_SUBJECT, PAYMENT_SUBJECT } from "../payment/subject.js";

export const SCA_SUBJECTS: ScaSubjects = {
  "payment": PAYMENT_SUBJECT,
  "payment-cancellation": CANCELLATION_SUBJECT,
  "consent": CONSENT_SUBJECT,
  "basket": BASKET_SUBJECT,
};
