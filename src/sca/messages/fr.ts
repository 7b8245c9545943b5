/** French catalogue of the PSU pages. */
import type { Catalogue } from "./en.js";

export const fr: Catalogue = {
  language_name: "Français",
  page_title: "Autorisation auprès de {bank}",
  language_switch: "Langue",
  steps_label: "Progression",
  step_login: "Connexion",
  step_code: "Vérification",
  step_review: "Contrôle",
  intro_payment: "{tpp} vous demande d'autoriser un paiement.",
  intro_payment_cancellation: "{tpp} vous demande d'autoriser l'annulation d'un paiement.",
  intro_consent: "{tpp} demande à accéder aux informations de vos comptes.",
  intro_funds_confirmation: "{tpp} demande à vérifier si votre compte dispose des fonds pour des "
    + "paiements par carte (oui ou non, jamais le solde).",
  label_login: "Identifiant",
  label_password: "Mot de passe",
  label_code: "Code d'autorisation",
  button_login: "Se connecter",
  button_continue: "Continuer",
  button_confirm: "Confirmer",
  button_cancel: "Annuler",
  button_resend: "Envoyer un nouveau code",
  back_to_tpp: "Retour à {tpp}",
  error_not_found: "Cette page n'existe pas. Le lien était peut-être incomplet.",
  site_intro: "Ici, {bank} vous demande de confirmer ce qu'un prestataire demande en votre nom : "
    + "commencez depuis l'application ou le site du prestataire.",
  link_dashboard: "Vos consentements et paiements",
  footer_imprint: "Mentions légales",
  footer_privacy: "Confidentialité",
  footer_help: "Aide et contact",
  footer_security: "{bank} ne vous demande jamais votre mot de passe ni vos codes par téléphone, "
    + "e-mail ou SMS. Saisissez-les uniquement sur ces pages.",
  code_totp_hint: "Saisissez le code à 6 chiffres affiché par votre application "
    + "d'authentification.",
  code_sms_hint: "Nous avons envoyé un code à 6 chiffres par SMS au {phone}. Il est valable 5 "
    + "minutes.",
  review_amount: "Montant",
  review_payee: "Bénéficiaire",
  review_payee_iban: "IBAN du bénéficiaire",
  review_purpose: "Motif",
  review_debtor: "Depuis le compte",
  review_tpp: "Demandé par",
  tpp_registered: "{tpp}, agréé sous le numéro {id}",
  review_execution: "Exécution",
  execution_today: "Aujourd'hui",
  execution_instant: "Instantané, en quelques secondes",
  review_schedule: "Échéancier",
  schedule_until: "{frequency} du {start} au {end}",
  schedule_open: "{frequency} à partir du {start}, jusqu'à ce que vous l'annuliez",
  frequency_Daily: "Chaque jour",
  frequency_Weekly: "Chaque semaine",
  frequency_EveryTwoWeeks: "Toutes les deux semaines",
  frequency_Monthly: "Chaque mois",
  frequency_EveryTwoMonths: "Tous les deux mois",
  frequency_Quarterly: "Chaque trimestre",
  frequency_SemiAnnual: "Chaque semestre",
  frequency_Annual: "Chaque année",
  review_fees: "Frais",
  fees_none: "Aucun",
  review_available: "Disponible maintenant",
  warning_insufficient: "Ce montant dépasse ce que le compte peut payer maintenant, découvert "
    + "compris. Si vous confirmez, la banque refusera le paiement.",
  review_next_signature: "Quand vous confirmez, la banque enregistre votre signature ; elle "
    + "exécute le paiement lorsque tous les signataires ont signé et vous ramène vers {tpp}.",
  review_next: "Quand vous confirmez, la banque exécute le paiement, vous en donne le résultat "
    + "et vous ramène sur {tpp}.",
  review_accounts: "Choisissez les comptes que {tpp} peut consulter",
  review_valid_until: "Accès valable jusqu'au {date}",
  review_shares: "partagé : {what}",
  unknown_tpp: "le prestataire",
  access_list: "détails du compte",
  access_balances: "soldes",
  access_transactions: "opérations",
  error_credentials_invalid: "Les identifiants sont incorrects. Veuillez réessayer.",
  error_credentials_attempts: "Les identifiants ne sont pas corrects. Tentatives restantes avant "
    + "un blocage de l'accès pendant {minutes} minutes : {attempts}.",
  error_code_attempts: "Le code n'est pas correct. Tentatives restantes avant un blocage de "
    + "l'accès pendant {minutes} minutes : {attempts}.",
  error_psu_blocked: "Trop de tentatives échouées : l'accès est bloqué pour {minutes} minutes au "
    + "plus. Réessayez plus tard.",
  error_psu_blocked_by_bank:
    "Votre accès a été bloqué par la banque. Veuillez contacter la banque.",
  error_code_invalid: "Les identifiants sont incorrects. Veuillez réessayer.",
  error_code_expired: "Le code a expiré. Demandez un nouveau code.",
  error_code_reused: "Ce code vient d'être utilisé. Attendez le code suivant dans votre "
    + "application d'authentification et saisissez-le.",
  error_resend_limit: "Aucun autre code ne peut être envoyé. Veuillez saisir le dernier code reçu.",
  error_session_expired: "Votre session est terminée. Veuillez recommencer depuis {tpp}.",
  error_link_used: "Ce lien a déjà été utilisé. Veuillez recommencer depuis le site du "
    + "prestataire.",
  error_link_invalid: "Ce lien n'est pas valide ou a expiré.",
  error_already_decided: "Cette demande a déjà été traitée.",
  error_wrong_step: "Veuillez suivre les étapes dans l'ordre.",
  error_no_device: "Aucun dispositif d'authentification n'est enregistré pour vous. Contactez "
    + "votre banque.",
  error_no_account_selected: "Sélectionnez au moins un compte.",
  error_debtor_not_owned: "Ce paiement doit être effectué depuis un compte qui n'est pas le vôtre.",
  error_psu_not_named: "Cette autorisation a été demandée pour un autre client de la banque. "
    + "Seul le client désigné par le prestataire peut la terminer.",
  error_debtor_blocked: "Le compte de ce paiement est bloqué.",
  error_no_signing_right: "Vous n'êtes pas habilité à signer pour ce compte : demandez à un "
    + "collègue habilité.",
  error_already_signed: "Vous avez déjà signé. Un autre signataire habilité de votre "
    + "entreprise doit maintenant signer.",
  error_foreign_accounts: "{tpp} demande des comptes qui ne sont pas les vôtres : {ibans}. Vous "
    + "pouvez seulement annuler.",
  error_csrf: "Le formulaire a expiré. Veuillez réessayer.",
  sandbox_back_ok: "De retour chez le prestataire : l'autorisation a abouti. Le prestataire lit "
    + "maintenant le statut du paiement ou du consentement via l'API (un paiement refusé par la "
    + "banque est RJCT).",
  sandbox_back_nok: "De retour chez le prestataire : l'autorisation a été annulée ou refusée.",
  label_device: "Où devons-nous envoyer votre code d'autorisation ?",
  device_totp: "Application d'authentification",
  device_sms: "SMS au {phone}",
  sms_text: "{bank} : votre code {code} {what}. Ne le communiquez jamais.",
  sms_payment: "autorise le paiement de {amount} à {payee} ({iban}) depuis {account}",
  sms_cancellation: "annule le paiement de {amount} à {payee} ({iban}) depuis {account}",
  sms_bulk: "autorise le paiement groupé de {total} au total (paiements : {count}) depuis "
    + "{account}",
  sms_consent: "donne à {tpp} l'accès aux données de vos comptes jusqu'au {date}",
  sms_consent_accounts: "donne à {tpp} l'accès aux données de {accounts} jusqu'au {date}",
  sms_basket: "autorise le panier de signature : {items}",
  sms_basket_payments: "{total} au total (paiements : {count})",
  sms_basket_consents: "accès aux comptes (consentements : {count})",
  sms_dashboard: "ouvre la vue de vos consentements",
  sms_payee_add: "fait de {payee} ({iban}) un bénéficiaire de confiance",
  sms_payee_remove: "retire {payee} ({iban}) de vos bénéficiaires de confiance",
  dashboard_title: "Vos consentements chez {bank}",
  dashboard_login: "Connectez-vous pour voir et gérer les accès que vous avez donnés aux "
    + "prestataires.",
  dashboard_heading: "Vos consentements et paiements",
  dashboard_signed_in: "Connecté en tant que {name}.",
  button_logout: "Se déconnecter",
  dashboard_consents: "Accès à vos comptes",
  dashboard_payments: "Paiements initiés par des prestataires",
  dashboard_no_consents: "Vous n'avez donné accès à vos comptes à aucun prestataire.",
  dashboard_no_payments: "Aucun prestataire n'a initié de paiement pour vous.",
  consent_of: "Accès pour {tpp}",
  consent_status: "Statut",
  consent_accounts: "Comptes et données",
  consent_valid_until: "Valable jusqu'au",
  consent_last_use: "Dernière utilisation",
  consent_given: "Donné le",
  payment_of: "{amount} à {payee}",
  payment_tpp: "Initié par",
  payment_date: "Date du paiement",
  button_revoke: "Révoquer l'accès de {tpp}",
  revoke_confirm_heading: "Révoquer l'accès de {tpp} ?",
  revoke_confirm_text: "Dès maintenant, {tpp} ne peut plus lire vos comptes avec cet accès. Cela "
    + "ne peut pas être annulé ; pour partager à nouveau, donnez un nouveau consentement via "
    + "{tpp}.",
  button_revoke_confirm: "Oui, révoquer l'accès",
  link_keep_access: "Non, garder l'accès",
  filter_label: "Afficher les paiements",
  filter_all: "Tous",
  filter_awaiting: "En attente d'autorisation",
  filter_executed: "Exécutés ou acceptés",
  filter_rejected: "Refusés ou annulés",
  filter_none: "Aucun paiement de ce type.",
  page_of: "Page {page} sur {pages}",
  link_previous: "Précédent",
  link_next: "Suivant",
  abandoned_summary: "Non terminés : jamais autorisés ({count})",
  notice_revoked: "L'accès a été révoqué. Le prestataire ne peut plus lire vos comptes avec "
    + "celui-ci.",
  notice_logged_out: "Vous êtes déconnecté.",
  error_revoke_refused: "Cet accès ne peut pas être révoqué : il a déjà pris fin.",
  dashboard_awaiting_signature: "En attente de votre signature",
  dashboard_awaiting_signature_text: "Ces paiements depuis les comptes de votre entreprise "
    + "attendent votre signature. Le prestataire qui les a initiés vous envoie le lien pour "
    + "signer.",
  payment_signatures: "Signatures",
  signatures_given: "{given} sur {required}",
  status_received: "en attente de votre autorisation",
  status_partiallyAuthorised: "en attente d'autres signatures",
  status_rejected: "refusé",
  status_valid: "actif",
  status_revokedByPsu: "révoqué par vous",
  status_expired: "expiré",
  status_terminatedByTpp: "terminé par le prestataire",
  status_payment_pending: "en attente d'autorisation",
  status_payment_accepted: "accepté, en cours",
  status_payment_executed: "exécuté",
  status_payment_rejected: "rejeté",
  status_payment_cancelled: "annulé",
  review_vop: "Vérification du nom",
  vop_match: "Le nom correspond au titulaire du compte auprès de la banque du bénéficiaire.",
  vop_own_account: "Votre propre compte : l'argent reste chez vous.",
  vop_close: "La banque du bénéficiaire connaît ce compte sous le nom « {name} ». Est-ce bien le "
    + "bénéficiaire voulu ?",
  vop_no_match: "Le nom ne correspond pas au titulaire du compte auprès de la banque du "
    + "bénéficiaire. L'argent pourrait aller à une autre personne que prévu.",
  vop_not_possible: "La banque du bénéficiaire n'a pas pu vérifier le nom. Vérifiez l'IBAN.",
  vop_creditor_confirmed: "Votre prestataire nous a confirmé que vous avez vu cette vérification "
    + "du nom et souhaitez payer ce bénéficiaire.",
  vop_acknowledge: "Je comprends que l'argent peut aller à une autre personne que le "
    + "bénéficiaire indiqué.",
  error_vop_unacknowledged: "Le nom du bénéficiaire ne correspond pas : cochez la case pour "
    + "confirmer malgré tout, ou annulez.",
  notice_session_ended: "Votre session a pris fin. Veuillez vous reconnecter.",
  result_title_done: "C'est fait",
  result_title_refused: "Non exécuté",
  result_title_unchanged: "Rien n'a été modifié",
  result_executed: "Le paiement a été effectué.",
  result_sent: "Le paiement a quitté votre compte et est en route vers la banque du bénéficiaire.",
  result_accepted: "La banque a accepté le paiement et l'exécute.",
  result_scheduled: "Le paiement est autorisé et sera effectué le {date}.",
  result_standing_order: "Le virement permanent est mis en place. Le prochain paiement est prévu "
    + "le {date}.",
  result_consent_awaiting_signature: "Votre signature est enregistrée. L'accès prend effet "
    + "lorsque tous les signataires requis auront signé.",
  result_awaiting_signature: "Votre signature est enregistrée. Le paiement sera effectué lorsque "
    + "tous les signataires requis auront signé.",
  result_partly_executed: "Seuls certains paiements de ce lot ont été effectués : le prestataire "
    + "vous indique lesquels.",
  result_rejected: "La banque n'a pas effectué ce paiement : {reason}. Aucun montant n'a été "
    + "débité de votre compte.",
  result_cancelled: "Vous avez annulé. Rien ne sera payé.",
  result_pending: "La banque traite encore cette demande.",
  result_unconfirmed: "Confirmé. Cela prend effet dès que {tpp} le confirme à votre retour.",
  result_payment_cancelled: "Le paiement a été annulé et ne sera pas effectué.",
  result_cancellation_kept: "Le paiement n'a pas été annulé : il reste tel quel.",
  result_consent_given: "{tpp} peut désormais accéder aux comptes choisis jusqu'au {date}.",
  result_consent_refused: "Aucun accès n'a été accordé.",
  reason_insufficient_funds: "le solde du compte est insuffisant, découvert compris",
  reason_limit_exceeded: "le montant dépasse le plafond du compte",
  reason_account_blocked: "le compte est bloqué",
  reason_other: "il n'a pas pu être comptabilisé",
  review_payees: "{count} bénéficiaires",
  app_title: "Appli {bank}",
  app_heading: "Demandes à confirmer",
  app_none: "Aucune demande en attente. Les nouvelles apparaissent ici d'elles-mêmes.",
  app_not_activated: "Cet appareil n'est pas encore activé pour l'appli {bank}. Connectez-vous "
    + "à votre banque en ligne et activez-le avec un code PIN d'appli.",
  app_activate_link: "Se connecter pour activer",
  app_consent: "{tpp} demande l'accès aux informations de vos comptes : {accounts}.",
  app_consent_all: "tous vos comptes",
  app_pin_label: "Code PIN de l'appli",
  app_approve: "Confirmer",
  app_reject: "Refuser",
  notice_app_approved: "Confirmé. Le prestataire l'apprend aussitôt.",
  notice_app_rejected: "Refusé. Rien n'est exécuté.",
  error_pin_attempts: "Le code PIN n'est pas correct. Tentatives restantes avant un blocage de "
    + "{minutes} minutes : {attempts}.",
  error_pin_format: "Le code PIN de l'appli doit compter 4 à 8 chiffres.",
  dashboard_app_heading: "Appli bancaire",
  dashboard_app_text: "Activez l'appli sur cet appareil pour y confirmer les demandes des "
    + "prestataires. Choisissez un code PIN de 4 à 8 chiffres ; vous le saisissez à chaque "
    + "confirmation.",
  dashboard_app_pin: "Nouveau code PIN",
  dashboard_app_activate: "Activer sur cet appareil",
  dashboard_app_active: "Activée le {date}",
  dashboard_app_revoke: "Désactiver",
  notice_app_activated: "L'appli est activée sur cet appareil.",
  notice_app_revoked: "L'appli est désactivée sur cet appareil.",
  intro_basket: "{tpp} vous demande d'autoriser plusieurs paiements et consentements en une "
    + "seule confirmation.",
  review_basket_payments: "Paiements",
  review_basket_consents: "Accès à vos comptes",
  review_total: "Total",
  review_basket_accounts: "Comptes",
  basket_foreign: "Ces comptes ne sont pas les vôtres : {ibans}. Les consentements qui les "
    + "nomment seront refusés.",
  error_in_basket: "Ce paiement ou ce consentement fait partie d'un panier de signature : il est "
    + "autorisé avec le panier, pas seul.",
  result_basket_done: "Vous avez autorisé le panier. Voici ce que sont devenus ses paiements et "
    + "consentements :",
  result_basket_refused: "Vous n'avez pas autorisé le panier : aucun de ses paiements et "
    + "consentements n'a été exécuté.",
  app_basket: "{tpp} vous demande de confirmer {count} paiements et consentements à la fois : "
    + "{total}.",
  error_exemption_spent: "Ce paiement demande maintenant votre code : depuis votre dernière "
    + "authentification avec un code, la limite des paiements sans code est atteinte. Retournez "
    + "chez {tpp} et recommencez.",
  trusted_heading: "Bénéficiaires de confiance",
  trusted_text: "Un paiement à un bénéficiaire de confiance ne demande que votre mot de passe, "
    + "sans code. Ajouter ou retirer un bénéficiaire demande un code de votre appareil.",
  trusted_none: "Vous n'avez aucun bénéficiaire de confiance.",
  trusted_iban: "IBAN",
  trusted_name: "Nom du bénéficiaire",
  trusted_add: "Ajouter un bénéficiaire de confiance",
  trusted_remove: "Retirer",
  trusted_confirm_add: "Confirmez avec votre code : {name} ({iban}) devient un bénéficiaire de "
    + "confiance.",
  trusted_confirm_remove: "Confirmez avec votre code : {name} ({iban}) n'est plus un "
    + "bénéficiaire de confiance.",
  notice_trusted: "Le bénéficiaire est désormais de confiance.",
  notice_distrusted: "Le bénéficiaire n'est plus de confiance.",
  error_trusted_payee: "Saisissez un IBAN valide et le nom du bénéficiaire.",
  about_label: "Ce que vous autorisez",
  about_payment: "Payer {amount} à {payee}, à la demande de {tpp}",
  about_bulk: "Payer {amount} au total à {count} bénéficiaires, à la demande de {tpp}",
  about_cancellation: "Annuler le paiement de {amount} à {payee}, à la demande de {tpp}",
  about_consent: "{tpp} demande à consulter vos comptes jusqu'au {date}",
  about_funds: "{tpp} demande à vérifier la provision de votre compte pour les paiements par "
    + "carte jusqu'au {date}",
  about_basket: "{count} paiements et accès, {total} au total, à la demande de {tpp}",
  notice_exempted: "Votre mot de passe suffit cette fois.",
  exemption_10a: "Vous avez confirmé l'accès de ce prestataire avec un code au cours des 180 "
    + "derniers jours.",
  exemption_13: "Le bénéficiaire figure sur votre liste de bénéficiaires de confiance.",
  exemption_14: "Il répète un paiement que vous avez déjà confirmé avec un code.",
  exemption_16: "Le montant est faible et dans la limite des paiements sans code.",
  exemption_18: "Notre contrôle anti-fraude n'a rien relevé d'inhabituel, et vous utilisez un "
    + "appareil connu.",
  exemption_sandbox: "Vous êtes le client de test du bac à sable, qui n'a jamais besoin de code "
    + "(bac à sable uniquement).",
  receipt_heading: "Justificatif",
  receipt_time: "Date et heure",
  receipt_reference: "Référence",
  idle_soon: "Votre session va bientôt se terminer, faute d'activité depuis un moment.",
  idle_stay: "Rester connecté",
  idle_over: "Votre session s'est terminée après un moment sans activité. Rien n'a été autorisé.",
  idle_continue: "Continuer",
  login_forgot_password: "Mot de passe oublié ?",
  login_help: "Aide à la connexion",
  app_time_left: "Temps restant pour répondre :",
  receipt_balance_after: "Solde après l'opération",
  account_available: "{amount} disponibles",
  error_heading: "Cette demande ne peut pas continuer",
  unavailable_heading: "Momentanément indisponible",
  error_unavailable: "La banque ne peut pas répondre pour le moment. Rien de ce que vous avez "
    + "confirmé n'est perdu. Veuillez réessayer dans un instant.",
  button_try_again: "Réessayer",
  link_bank_home: "Vers la page d'accueil",
  status_replaced: "remplacé par votre consentement plus récent",
  dashboard_accounts: "Vos comptes et cartes",
  dashboard_no_accounts: "Vous ne détenez aucun compte dans cette banque.",
  account_unnamed: "Compte",
  card_unnamed: "Carte",
  permissions_text: "Ce que chaque prestataire peut voir, dans quel but et jusqu’à quand. Les "
    + "autorisations terminées restent affichées {days} jours, avec la date et le motif de leur "
    + "fin.",
  permission_purpose: "Finalité",
  purpose_not_stated: "non indiquée par le prestataire",
  permission_data: "Données",
  data_funds: "uniquement si un montant est disponible (oui ou non)",
  data_transactions_back: "opérations des {days} derniers jours (plus anciennes seulement dans "
    + "l’heure suivant votre accord)",
  permission_ended: "Terminé le",
  dashboard_orders: "Virements permanents via des prestataires",
  order_of: "Virement permanent : {amount} à {payee}",
  order_next: "Prochain paiement",
  status_withdrawn: "arrêté par vous",
  status_order_completed: "terminé",
  button_withdraw_order: "Arrêter ce virement permanent",
  withdraw_confirm_heading: "Arrêter le virement permanent à {payee} ?",
  withdraw_confirm_text: "Ensuite, aucun autre paiement n’est effectué. {tpp}, qui l’a mis en "
    + "place, en est informé. Cette action est définitive.",
  button_withdraw_confirm: "Oui, arrêter le virement permanent",
  link_keep_order: "Non, le garder",
  notice_withdrawn: "Le virement permanent a été arrêté. Aucun autre paiement ne sera effectué.",
  error_withdraw_refused: "Ce virement permanent ne peut pas être arrêté : il est déjà terminé.",
  review_fraud: "Alerte à la fraude",
  fraud_flagged: "Des clients de cette banque ont signalé des paiements vers ce compte comme "
    + "frauduleux. Ne payez que si vous connaissez le bénéficiaire et savez qui reçoit "
    + "l'argent.",
  button_report_fraud: "Signaler ce paiement comme fraude",
  report_fraud_heading: "Signaler ce paiement comme fraude ?",
  report_fraud_text: "Signalez-le si vous ne vouliez pas ce paiement ou si le bénéficiaire vous "
    + "a trompé. La banque enregistre votre signalement ; si d'autres clients signalent le même "
    + "compte, tous ceux qui le paient sont avertis.",
  button_report_fraud_confirm: "Oui, le signaler comme fraude",
  notice_fraud_reported: "Votre signalement est enregistré. Appelez aussi la banque, afin "
    + "qu'elle tente de récupérer l'argent.",
  error_fraud_report: "Ce paiement ne peut pas être signalé : seul un paiement exécuté peut "
    + "l'être, une seule fois.",
  statistics_title: "Statistiques de l’interface de {bank}",
  statistics_heading: "Disponibilité et rapidité de notre interface pour les prestataires",
  statistics_intro: "Chaque trimestre, nous publions la disponibilité et la rapidité de notre "
    + "interface pour les prestataires d’information sur les comptes, d’initiation de paiement "
    + "et de confirmation de fonds, à côté de nos propres pages de banque en ligne (règlement "
    + "(UE) 2018/389, article 32, paragraphe 4). Les jours vont de minuit à minuit UTC.",
  statistics_definitions: "L’interface est considérée comme indisponible dès la première de cinq "
    + "requêtes consécutives sans réponse dans les 30 secondes, jusqu’à ce qu’une requête "
    + "reçoive de nouveau une réponse. Les erreurs sont les réponses dues à la banque (erreurs "
    + "du serveur et requêtes sans réponse dans les 30 secondes), pas les refus de requêtes "
    + "erronées.",
  statistics_download: "Chiffres quotidiens (CSV)",
  statistics_quarter: "{n}e trimestre {year}",
  statistics_period: "Du {from} au {to}.",
  statistics_none: "Aucun chiffre pour ce trimestre.",
  statistics_category: "Requêtes pour",
  statistics_requests: "Nombre",
  statistics_mean: "Temps de réponse moyen",
  statistics_errors: "Réponses en erreur",
  statistics_availability: "Disponi\u00ADbilité",
  statistics_chart: "Temps de réponse moyen par type de requête, {quarter}",
  statistics_downtime: "Indisponibilité : {dedicated} pour l’interface des prestataires, {psu} "
    + "pour nos pages de banque en ligne.",
  category_ais: "Information sur les comptes (AIS)",
  category_pis: "Initiation de paiement (PIS)",
  category_piis: "Confirmation de fonds (PIIS)",
  category_psu: "Nos pages de banque en ligne",
};
