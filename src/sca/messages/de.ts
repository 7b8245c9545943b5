/** German catalogue of the PSU pages. */
import type { Catalogue } from "./en.js";

export const de: Catalogue = {
  language_name: "Deutsch",
  page_title: "Freigabe bei {bank}",
  language_switch: "Sprache",
  steps_label: "Fortschritt",
  step_login: "Anmelden",
  step_code: "Bestätigen",
  step_review: "Prüfen",
  intro_payment: "{tpp} bittet Sie, eine Zahlung zu autorisieren.",
  intro_payment_cancellation: "{tpp} bittet Sie, die Stornierung einer Zahlung zu autorisieren.",
  intro_consent: "{tpp} möchte Informationen zu Ihren Konten abrufen.",
  intro_funds_confirmation: "{tpp} möchte prüfen, ob Ihr Konto die Deckung für Kartenzahlungen "
    + "aufweist (nur ja oder nein, nie den Saldo).",
  label_login: "Anmeldename",
  label_password: "Passwort",
  label_code: "Autorisierungscode",
  button_login: "Anmelden",
  button_continue: "Weiter",
  button_confirm: "Bestätigen",
  button_cancel: "Abbrechen",
  button_resend: "Neuen Code senden",
  back_to_tpp: "Zurück zu {tpp}",
  error_not_found: "Diese Seite gibt es nicht. Vielleicht war der Link unvollständig.",
  site_intro: "Hier bittet {bank} Sie, zu bestätigen, was ein Anbieter in Ihrem Namen anfragt: "
    + "Beginnen Sie in der App oder auf der Website des Anbieters.",
  link_dashboard: "Ihre Zustimmungen und Zahlungen",
  footer_imprint: "Impressum",
  footer_privacy: "Datenschutz",
  footer_help: "Hilfe und Kontakt",
  footer_security: "{bank} fragt Sie nie per Telefon, E-Mail oder SMS nach Ihrem Passwort oder "
    + "Ihren Codes. Geben Sie sie nur auf diesen Seiten ein.",
  code_totp_hint: "Geben Sie den 6-stelligen Code aus Ihrer Authenticator-App ein.",
  code_sms_hint: "Wir haben einen 6-stelligen Code per SMS an {phone} gesendet. Er ist 5 Minuten "
    + "gültig.",
  review_amount: "Betrag",
  review_payee: "Empfänger",
  review_payee_iban: "IBAN des Empfängers",
  review_purpose: "Verwendungszweck",
  review_debtor: "Von Konto",
  review_tpp: "Angefragt von",
  tpp_registered: "{tpp}, zugelassen unter {id}",
  review_execution: "Ausführung",
  execution_today: "Heute",
  execution_instant: "Sofort, in Sekunden",
  review_schedule: "Ausführungsplan",
  schedule_until: "{frequency} ab {start} bis {end}",
  schedule_open: "{frequency} ab {start}, bis Sie den Dauerauftrag löschen",
  frequency_Daily: "Täglich",
  frequency_Weekly: "Wöchentlich",
  frequency_EveryTwoWeeks: "Alle zwei Wochen",
  frequency_Monthly: "Monatlich",
  frequency_EveryTwoMonths: "Alle zwei Monate",
  frequency_Quarterly: "Vierteljährlich",
  frequency_SemiAnnual: "Halbjährlich",
  frequency_Annual: "Jährlich",
  review_fees: "Entgelte",
  fees_none: "Keine",
  review_available: "Jetzt verfügbar",
  warning_insufficient: "Dieser Betrag ist höher als das, was das Konto jetzt zahlen kann, "
    + "Dispositionskredit eingeschlossen. Wenn Sie bestätigen, lehnt die Bank die Zahlung ab.",
  review_next_signature: "Wenn Sie bestätigen, erfasst die Bank Ihre Unterschrift; sie führt "
    + "die Zahlung aus, sobald alle unterschrieben haben, und leitet Sie zurück zu {tpp}.",
  review_next: "Wenn Sie bestätigen, führt die Bank die Zahlung aus, nennt Ihnen das Ergebnis "
    + "und führt Sie zu {tpp} zurück.",
  review_accounts: "Wählen Sie die Konten, die {tpp} sehen darf",
  review_valid_until: "Zugriff gültig bis {date}",
  review_shares: "freigegeben: {what}",
  unknown_tpp: "dem Anbieter",
  access_list: "Kontodaten",
  access_balances: "Salden",
  access_transactions: "Umsätze",
  error_credentials_invalid: "Die Anmeldedaten sind nicht korrekt. Bitte versuchen Sie es erneut.",
  error_credentials_attempts: "Die Anmeldedaten sind nicht korrekt. Verbleibende Versuche, bevor "
    + "der Zugang für {minutes} Minuten gesperrt wird: {attempts}.",
  error_code_attempts: "Der Code ist nicht korrekt. Verbleibende Versuche, bevor der Zugang für "
    + "{minutes} Minuten gesperrt wird: {attempts}.",
  error_psu_blocked: "Zu viele Fehlversuche: Der Zugang ist für bis zu {minutes} Minuten gesperrt. "
    + "Bitte später erneut versuchen.",
  error_psu_blocked_by_bank:
    "Ihr Zugang wurde von der Bank gesperrt. Bitte wenden Sie sich an die Bank.",
  error_code_invalid: "Die Anmeldedaten sind nicht korrekt. Bitte versuchen Sie es erneut.",
  error_code_expired: "Der Code ist abgelaufen. Fordern Sie einen neuen Code an.",
  error_code_reused: "Dieser Code wurde gerade schon verwendet. Warten Sie auf den nächsten Code "
    + "in Ihrer Authenticator-App und geben Sie ihn ein.",
  error_resend_limit: "Es können keine weiteren Codes gesendet werden. Bitte geben Sie den zuletzt "
    + "erhaltenen Code ein.",
  error_session_expired: "Ihre Sitzung ist beendet. Bitte beginnen Sie erneut bei {tpp}.",
  error_link_used: "Dieser Link wurde bereits verwendet. Bitte beginnen Sie erneut beim Anbieter.",
  error_link_invalid: "Dieser Link ist ungültig oder abgelaufen.",
  error_already_decided: "Über diese Anfrage wurde bereits entschieden.",
  error_wrong_step: "Bitte führen Sie die Schritte der Reihe nach aus.",
  error_no_device: "Für Sie ist kein Autorisierungsgerät registriert. Bitte wenden Sie sich an "
    + "Ihre Bank.",
  error_no_account_selected: "Wählen Sie mindestens ein Konto.",
  error_debtor_not_owned: "Diese Zahlung soll von einem Konto erfolgen, das nicht Ihnen gehört.",
  error_psu_not_named: "Diese Freigabe wurde für einen anderen Kunden der Bank angefragt. Nur "
    + "der vom Anbieter genannte Kunde kann sie abschließen.",
  error_debtor_blocked: "Das Konto dieser Zahlung ist gesperrt.",
  error_no_signing_right: "Sie sind für dieses Konto nicht zeichnungsberechtigt: bitten Sie "
    + "eine zeichnungsberechtigte Person.",
  error_already_signed: "Sie haben dies bereits unterschrieben. Nun muss eine andere "
    + "zeichnungsberechtigte Person Ihres Unternehmens unterschreiben.",
  error_foreign_accounts: "{tpp} fragt nach Konten, die nicht Ihnen gehören: {ibans}. Sie können "
    + "nur abbrechen.",
  error_csrf: "Das Formular ist abgelaufen. Bitte versuchen Sie es erneut.",
  sandbox_back_ok: "Zurück beim Drittanbieter: Die Freigabe war erfolgreich. Der Anbieter liest "
    + "nun den Status der Zahlung oder Einwilligung über die API (eine von der Bank abgelehnte "
    + "Zahlung steht auf RJCT).",
  sandbox_back_nok: "Zurück beim Drittanbieter: Die Freigabe wurde abgebrochen oder abgelehnt.",
  label_device: "Wohin sollen wir Ihren Autorisierungscode senden?",
  device_totp: "Authenticator-App",
  device_sms: "SMS an {phone}",
  sms_text: "{bank}: Ihr Code {code} {what}. Geben Sie ihn nie weiter.",
  sms_payment: "gibt die Zahlung von {amount} an {payee} ({iban}) zulasten {account} frei",
  sms_cancellation: "storniert die Zahlung von {amount} an {payee} ({iban}) zulasten {account}",
  sms_bulk: "gibt die Sammelzahlung über insgesamt {total} (Zahlungen: {count}) zulasten "
    + "{account} frei",
  sms_consent: "gibt {tpp} bis {date} Zugriff auf Ihre Kontodaten",
  sms_consent_accounts: "gibt {tpp} bis {date} Zugriff auf die Daten von {accounts}",
  sms_basket: "gibt den Auftragskorb frei: {items}",
  sms_basket_payments: "insgesamt {total} (Zahlungen: {count})",
  sms_basket_consents: "Kontozugriff (Freigaben: {count})",
  sms_dashboard: "öffnet Ihre Übersicht der Zugriffe",
  sms_payee_add: "macht {payee} ({iban}) zum vertrauenswürdigen Empfänger",
  sms_payee_remove: "entfernt {payee} ({iban}) aus Ihren vertrauenswürdigen Empfängern",
  dashboard_title: "Ihre Einwilligungen bei {bank}",
  dashboard_login: "Melden Sie sich an, um die Zugriffe zu sehen und zu verwalten, die Sie "
    + "Anbietern erteilt haben.",
  dashboard_heading: "Ihre Einwilligungen und Zahlungen",
  dashboard_signed_in: "Angemeldet als {name}.",
  button_logout: "Abmelden",
  dashboard_consents: "Zugriffe auf Ihre Konten",
  dashboard_payments: "Über Anbieter ausgelöste Zahlungen",
  dashboard_no_consents: "Sie haben keinem Anbieter Zugriff auf Ihre Konten erteilt.",
  dashboard_no_payments: "Kein Anbieter hat für Sie eine Zahlung ausgelöst.",
  consent_of: "Zugriff für {tpp}",
  consent_status: "Status",
  consent_accounts: "Konten und Daten",
  consent_valid_until: "Gültig bis",
  consent_last_use: "Zuletzt genutzt",
  consent_given: "Erteilt am",
  payment_of: "{amount} an {payee}",
  payment_tpp: "Ausgelöst über",
  payment_date: "Datum",
  button_revoke: "Zugriff für {tpp} widerrufen",
  revoke_confirm_heading: "Zugriff von {tpp} widerrufen?",
  revoke_confirm_text: "Ab sofort kann {tpp} Ihre Konten mit diesem Zugriff nicht mehr lesen. "
    + "Das lässt sich nicht rückgängig machen; um wieder zu teilen, erteilen Sie über {tpp} eine "
    + "neue Einwilligung.",
  button_revoke_confirm: "Ja, Zugriff widerrufen",
  link_keep_access: "Nein, Zugriff behalten",
  filter_label: "Zahlungen anzeigen",
  filter_all: "Alle",
  filter_awaiting: "Warten auf Freigabe",
  filter_executed: "Ausgeführt oder angenommen",
  filter_rejected: "Abgelehnt oder storniert",
  filter_none: "Keine Zahlungen dieser Art.",
  page_of: "Seite {page} von {pages}",
  link_previous: "Zurück",
  link_next: "Weiter",
  abandoned_summary: "Nicht abgeschlossen: nie freigegeben ({count})",
  notice_revoked: "Der Zugriff wurde widerrufen. Der Anbieter kann Ihre Konten damit nicht mehr "
    + "lesen.",
  notice_logged_out: "Sie wurden abgemeldet.",
  error_revoke_refused: "Dieser Zugriff kann nicht widerrufen werden: Er ist bereits beendet.",
  dashboard_awaiting_signature: "Wartet auf Ihre Unterschrift",
  dashboard_awaiting_signature_text: "Diese Zahlungen von Konten Ihres Unternehmens brauchen "
    + "Ihre Unterschrift. Den Link zum Unterschreiben sendet Ihnen der Anbieter, der sie "
    + "veranlasst hat.",
  payment_signatures: "Unterschriften",
  signatures_given: "{given} von {required}",
  status_received: "wartet auf Ihre Freigabe",
  status_partiallyAuthorised: "wartet auf weitere Unterschriften",
  status_rejected: "abgelehnt",
  status_valid: "aktiv",
  status_revokedByPsu: "von Ihnen widerrufen",
  status_expired: "abgelaufen",
  status_terminatedByTpp: "vom Anbieter beendet",
  status_payment_pending: "wartet auf Freigabe",
  status_payment_accepted: "angenommen, in Bearbeitung",
  status_payment_executed: "ausgeführt",
  status_payment_rejected: "abgewiesen",
  status_payment_cancelled: "storniert",
  review_vop: "Namensprüfung",
  vop_match: "Der Name stimmt mit dem Kontoinhaber bei der Bank des Empfängers überein.",
  vop_own_account: "Ihr eigenes Konto: Das Geld bleibt bei Ihnen.",
  vop_close: "Die Bank des Empfängers führt dieses Konto unter dem Namen „{name}“. Ist das der "
    + "gewünschte Empfänger?",
  vop_no_match: "Der Name stimmt nicht mit dem Kontoinhaber bei der Bank des Empfängers überein. "
    + "Das Geld könnte an jemand anderen gehen als beabsichtigt.",
  vop_not_possible: "Die Bank des Empfängers konnte den Namen nicht prüfen. Bitte prüfen Sie die "
    + "IBAN.",
  vop_creditor_confirmed: "Ihr Anbieter hat uns bestätigt, dass Sie diese Namensprüfung gesehen "
    + "haben und an diesen Empfänger zahlen möchten.",
  vop_acknowledge: "Mir ist bewusst, dass das Geld an jemand anderen als den genannten Empfänger "
    + "gehen kann.",
  error_vop_unacknowledged: "Der Name des Empfängers stimmt nicht überein: Setzen Sie das "
    + "Häkchen, um trotzdem zu bestätigen, oder brechen Sie ab.",
  notice_session_ended: "Ihre Sitzung ist beendet. Bitte melden Sie sich erneut an.",
  result_title_done: "Erledigt",
  result_title_refused: "Nicht ausgeführt",
  result_title_unchanged: "Nichts wurde geändert",
  result_executed: "Die Zahlung wurde ausgeführt.",
  result_sent: "Die Zahlung hat Ihr Konto verlassen und ist unterwegs zur Bank des Empfängers.",
  result_accepted: "Die Bank hat die Zahlung angenommen und führt sie aus.",
  result_scheduled: "Die Zahlung ist freigegeben und wird am {date} ausgeführt.",
  result_standing_order: "Der Dauerauftrag ist eingerichtet. Die nächste Zahlung ist am {date} "
    + "fällig.",
  result_consent_awaiting_signature: "Ihre Unterschrift ist erfasst. Der Zugriff gilt, sobald "
    + "alle unterschrieben haben, die unterschreiben müssen.",
  result_awaiting_signature: "Ihre Unterschrift ist erfasst. Die Zahlung wird ausgeführt, sobald "
    + "alle unterschrieben haben, die unterschreiben müssen.",
  result_partly_executed: "Nur ein Teil der Zahlungen dieser Sammelzahlung wurde ausgeführt: der "
    + "Anbieter zeigt Ihnen, welche.",
  result_rejected: "Die Bank hat diese Zahlung nicht ausgeführt: {reason}. Es wurde kein Geld von "
    + "Ihrem Konto abgebucht.",
  result_cancelled: "Sie haben abgebrochen. Es wird nichts bezahlt.",
  result_pending: "Die Bank bearbeitet diesen Auftrag noch.",
  result_unconfirmed: "Bestätigt. Es wird wirksam, sobald {tpp} es nach Ihrer Rückkehr bestätigt.",
  result_payment_cancelled: "Die Zahlung wurde storniert und wird nicht ausgeführt.",
  result_cancellation_kept: "Die Zahlung wurde nicht storniert: sie bleibt, wie sie war.",
  result_consent_given: "{tpp} darf nun bis zum {date} auf die gewählten Konten zugreifen.",
  result_consent_refused: "Es wurde kein Zugriff erteilt.",
  reason_insufficient_funds: "das Konto ist nicht ausreichend gedeckt, Dispositionskredit "
    + "eingerechnet",
  reason_limit_exceeded: "der Betrag übersteigt das Limit des Kontos",
  reason_account_blocked: "das Konto ist gesperrt",
  reason_other: "sie konnte nicht gebucht werden",
  review_payees: "{count} Empfänger",
  app_title: "{bank} App",
  app_heading: "Zu bestätigende Anfragen",
  app_none: "Es warten keine Anfragen. Neue erscheinen hier von selbst.",
  app_not_activated: "Dieses Gerät ist noch nicht für die {bank} App freigeschaltet. Melden "
    + "Sie sich im Online-Banking an und schalten Sie es dort mit einer App-PIN frei.",
  app_activate_link: "Zum Freischalten anmelden",
  app_consent: "{tpp} bittet um Zugriff auf Informationen zu Ihren Konten: {accounts}.",
  app_consent_all: "alle Ihre Konten",
  app_pin_label: "App-PIN",
  app_approve: "Bestätigen",
  app_reject: "Ablehnen",
  notice_app_approved: "Bestätigt. Der Anbieter erfährt es sofort.",
  notice_app_rejected: "Abgelehnt. Es wird nichts ausgeführt.",
  error_pin_attempts: "Die PIN ist nicht korrekt. Verbleibende Versuche, bevor der Zugang für "
    + "{minutes} Minuten gesperrt wird: {attempts}.",
  error_pin_format: "Die App-PIN muss aus 4 bis 8 Ziffern bestehen.",
  dashboard_app_heading: "Banking-App",
  dashboard_app_text: "Schalten Sie die App auf diesem Gerät frei, um Anfragen von Anbietern "
    + "dort zu bestätigen. Wählen Sie eine App-PIN aus 4 bis 8 Ziffern; Sie geben sie bei "
    + "jeder Bestätigung ein.",
  dashboard_app_pin: "Neue App-PIN",
  dashboard_app_activate: "Auf diesem Gerät freischalten",
  dashboard_app_active: "Freigeschaltet am {date}",
  dashboard_app_revoke: "Deaktivieren",
  notice_app_activated: "Die App ist auf diesem Gerät freigeschaltet.",
  notice_app_revoked: "Die App ist auf diesem Gerät deaktiviert.",
  intro_basket: "{tpp} bittet Sie, mehrere Zahlungen und Zustimmungen mit einer Bestätigung "
    + "freizugeben.",
  review_basket_payments: "Zahlungen",
  review_basket_consents: "Zugriff auf Ihre Konten",
  review_total: "Summe",
  review_basket_accounts: "Konten",
  basket_foreign: "Diese Konten gehören nicht Ihnen: {ibans}. Die Zustimmungen, die sie nennen, "
    + "werden abgelehnt.",
  error_in_basket: "Diese Zahlung oder Zustimmung gehört zu einem Sammelauftrag: Sie wird mit "
    + "dem Sammelauftrag freigegeben, nicht allein.",
  result_basket_done: "Sie haben den Sammelauftrag freigegeben. Das wurde aus den einzelnen "
    + "Zahlungen und Zustimmungen:",
  result_basket_refused: "Sie haben den Sammelauftrag nicht freigegeben: keine seiner Zahlungen "
    + "und Zustimmungen wurde ausgeführt.",
  app_basket: "{tpp} bittet Sie, {count} Zahlungen und Zustimmungen auf einmal zu bestätigen: "
    + "{total}.",
  error_exemption_spent: "Diese Zahlung braucht jetzt Ihren Code: Seit Ihrer letzten Anmeldung "
    + "mit Code ist die Grenze für Zahlungen ohne Code erreicht. Gehen Sie zurück zu {tpp} und "
    + "beginnen Sie neu.",
  trusted_heading: "Vertrauenswürdige Empfänger",
  trusted_text: "Eine Zahlung an einen vertrauenswürdigen Empfänger braucht nur Ihr Passwort, "
    + "keinen Code. Einen Empfänger hinzuzufügen oder zu entfernen braucht einen Code von Ihrem "
    + "Gerät.",
  trusted_none: "Sie haben keine vertrauenswürdigen Empfänger.",
  trusted_iban: "IBAN",
  trusted_name: "Name des Empfängers",
  trusted_add: "Vertrauenswürdigen Empfänger hinzufügen",
  trusted_remove: "Entfernen",
  trusted_confirm_add: "Bestätigen Sie mit Ihrem Code: {name} ({iban}) wird vertrauenswürdiger "
    + "Empfänger.",
  trusted_confirm_remove: "Bestätigen Sie mit Ihrem Code: {name} ({iban}) ist kein "
    + "vertrauenswürdiger Empfänger mehr.",
  notice_trusted: "Der Empfänger ist jetzt vertrauenswürdig.",
  notice_distrusted: "Der Empfänger ist nicht mehr vertrauenswürdig.",
  error_trusted_payee: "Geben Sie eine gültige IBAN und den Namen des Empfängers ein.",
  about_label: "Was Sie freigeben",
  about_payment: "{amount} an {payee} zahlen, beauftragt von {tpp}",
  about_bulk: "Insgesamt {amount} an {count} Empfänger zahlen, beauftragt von {tpp}",
  about_cancellation: "Die Zahlung von {amount} an {payee} stornieren, beauftragt von {tpp}",
  about_consent: "{tpp} möchte Ihre Konten bis {date} einsehen",
  about_funds: "{tpp} möchte bis {date} die Deckung Ihres Kontos für Kartenzahlungen prüfen",
  about_basket: "{count} Zahlungen und Zugriffe, insgesamt {total}, beauftragt von {tpp}",
  notice_exempted: "Diesmal genügt Ihr Passwort.",
  exemption_10a: "Sie haben den Zugriff dieses Anbieters in den letzten 180 Tagen mit einem "
    + "Code bestätigt.",
  exemption_13: "Der Empfänger steht auf Ihrer Liste vertrauenswürdiger Empfänger.",
  exemption_14: "Sie wiederholt eine Zahlung, die Sie bereits mit einem Code bestätigt haben.",
  exemption_16: "Der Betrag ist klein und liegt im Rahmen für Zahlungen ohne Code.",
  exemption_18: "Unsere Betrugsprüfung fand nichts Ungewöhnliches, und Sie nutzen ein bekanntes "
    + "Gerät.",
  exemption_sandbox: "Sie sind die Testperson der Sandbox, die nie einen Code braucht (nur "
    + "Sandbox).",
  receipt_heading: "Beleg",
  receipt_time: "Datum und Uhrzeit",
  receipt_reference: "Referenz",
  idle_soon: "Ihre Sitzung endet gleich, weil eine Weile nichts geschehen ist.",
  idle_stay: "Angemeldet bleiben",
  idle_over: "Ihre Sitzung ist nach einer Weile ohne Aktivität beendet. Es wurde nichts "
    + "freigegeben.",
  idle_continue: "Weiter",
  login_forgot_password: "Passwort vergessen?",
  login_help: "Hilfe bei der Anmeldung",
  app_time_left: "Verbleibende Zeit für Ihre Antwort:",
  receipt_balance_after: "Kontostand nach der Buchung",
  account_available: "{amount} verfügbar",
  error_heading: "Dieser Auftrag kann nicht fortgesetzt werden",
  unavailable_heading: "Vorübergehend nicht erreichbar",
  error_unavailable: "Die Bank kann gerade nicht antworten. Nichts, was Sie bestätigt haben, "
    + "geht verloren. Bitte versuchen Sie es gleich noch einmal.",
  button_try_again: "Erneut versuchen",
  link_bank_home: "Zur Startseite",
  status_replaced: "ersetzt durch Ihre neuere Einwilligung",
  dashboard_accounts: "Ihre Konten und Karten",
  dashboard_no_accounts: "Sie haben kein Konto bei dieser Bank.",
  account_unnamed: "Konto",
  card_unnamed: "Karte",
  permissions_text: "Was jeder Anbieter sehen darf, wofür und bis wann. Beendete Berechtigungen "
    + "bleiben {days} Tage lang aufgeführt, mit Zeitpunkt und Grund ihres Endes.",
  permission_purpose: "Zweck",
  purpose_not_stated: "vom Anbieter nicht angegeben",
  permission_data: "Daten",
  data_funds: "nur, ob ein Betrag verfügbar ist (ja oder nein)",
  data_transactions_back: "Umsätze der letzten {days} Tage (ältere nur in der Stunde nach Ihrer "
    + "Freigabe)",
  permission_ended: "Beendet am",
  dashboard_orders: "Daueraufträge über Anbieter",
  order_of: "Dauerauftrag: {amount} an {payee}",
  order_next: "Nächste Zahlung",
  status_withdrawn: "von Ihnen beendet",
  status_order_completed: "abgeschlossen",
  button_withdraw_order: "Diesen Dauerauftrag beenden",
  withdraw_confirm_heading: "Den Dauerauftrag an {payee} beenden?",
  withdraw_confirm_text: "Danach wird keine weitere Zahlung ausgeführt. {tpp}, der ihn "
    + "eingerichtet hat, wird benachrichtigt. Das lässt sich nicht rückgängig machen.",
  button_withdraw_confirm: "Ja, Dauerauftrag beenden",
  link_keep_order: "Nein, behalten",
  notice_withdrawn: "Der Dauerauftrag wurde beendet. Es wird keine weitere Zahlung ausgeführt.",
  error_withdraw_refused: "Dieser Dauerauftrag kann nicht beendet werden: Er ist bereits "
    + "beendet.",
  review_fraud: "Betrugswarnung",
  fraud_flagged: "Kunden dieser Bank haben Zahlungen an dieses Konto als Betrug gemeldet. Zahlen "
    + "Sie nur, wenn Sie den Empfänger kennen und sicher sind, wer das Geld erhält.",
  button_report_fraud: "Diese Zahlung als Betrug melden",
  report_fraud_heading: "Diese Zahlung als Betrug melden?",
  report_fraud_text: "Melden Sie sie, wenn Sie diese Zahlung nicht wollten oder der Empfänger "
    + "Sie getäuscht hat. Die Bank speichert Ihre Meldung; melden weitere Kunden dasselbe "
    + "Empfängerkonto, wird jeder gewarnt, der dorthin zahlt.",
  button_report_fraud_confirm: "Ja, als Betrug melden",
  notice_fraud_reported: "Ihre Meldung ist gespeichert. Bitte rufen Sie auch die Bank an, damit "
    + "sie versuchen kann, das Geld zurückzuholen.",
  error_fraud_report: "Diese Zahlung kann nicht gemeldet werden: nur eine ausgeführte Zahlung, "
    + "und nur einmal.",
  statistics_title: "Statistiken der Schnittstelle der {bank}",
  statistics_heading: "Wie verfügbar und schnell unsere Schnittstelle für Drittanbieter ist",
  statistics_intro: "Jedes Quartal veröffentlichen wir, wie verfügbar und wie schnell unsere "
    + "Schnittstelle für Kontoinformations-, Zahlungsauslöse- und Deckungsbestätigungsdienste "
    + "war, neben unseren eigenen Online-Banking-Seiten (Verordnung (EU) 2018/389, Artikel 32 "
    + "Absatz 4). Ein Tag läuft von Mitternacht bis Mitternacht UTC.",
  statistics_definitions: "Die Schnittstelle gilt als nicht verfügbar ab der ersten von fünf "
    + "aufeinanderfolgenden Anfragen, die nicht innerhalb von 30 Sekunden beantwortet wurden, "
    + "bis wieder eine Anfrage beantwortet wird. Fehler sind die Antworten, die die Bank "
    + "verursacht hat (Serverfehler und nicht innerhalb von 30 Sekunden beantwortete Anfragen), "
    + "nicht Ablehnungen fehlerhafter Anfragen.",
  statistics_download: "Tageswerte (CSV)",
  statistics_quarter: "{n}. Quartal {year}",
  statistics_period: "Vom {from} bis {to}.",
  statistics_none: "Für dieses Quartal liegen keine Werte vor.",
  statistics_category: "Anfragen für",
  statistics_requests: "Anzahl",
  statistics_mean: "Mittlere Antwort\u00ADzeit",
  statistics_errors: "Fehler\u00ADantworten",
  statistics_availability: "Verfüg\u00ADbarkeit",
  statistics_chart: "Mittlere Antwortzeit je Art der Anfrage, {quarter}",
  statistics_downtime: "Nicht verfügbar: {dedicated} die Schnittstelle für Drittanbieter, {psu} "
    + "unsere Online-Banking-Seiten.",
  category_ais: "Konto\u00ADinformationen (AIS)",
  category_pis: "Zahlungs\u00ADauslösung (PIS)",
  category_piis: "Deckungs\u00ADbestätigung (PIIS)",
  category_psu: "Unsere Online-Banking-Seiten",
};
