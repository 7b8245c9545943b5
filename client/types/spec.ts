/* Generated from the bank's OpenAPI document by client/generate.ts; do not edit. */
export interface paths {
    "/psd2/v1/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** GET /psd2/v1/openapi.json */
        get: {
            parameters: {
                query?: never;
                header?: {
                    "X-Request-ID"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/psd2/v1/reference": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** GET /psd2/v1/reference */
        get: {
            parameters: {
                query?: never;
                header?: {
                    "X-Request-ID"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/psd2/v1/payments/{product}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** POST /psd2/v1/payments/:product */
        post: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    product: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        debtorAccount: string | {
                            iban: string;
                            currency?: string;
                        };
                        creditorAccount: string | {
                            iban: string;
                            currency?: string;
                        };
                        creditorName: string;
                        instructedAmount: {
                            currency: string;
                            amount: string | number;
                        };
                        creditorAddress?: {
                            street?: string;
                            streetName?: string;
                            buildingNumber?: string;
                            city?: string;
                            townName?: string;
                            postalCode?: string;
                            postCode?: string;
                            country: string;
                        };
                        creditorAgent?: string;
                        remittanceInformationUnstructured?: string;
                        endToEndIdentification?: string;
                        requestedExecutionDate?: string;
                    };
                };
            };
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            paymentId?: string;
                            transactionStatus?: string | null;
                            transactionFees?: null;
                            transactionFeeIndicator?: null;
                            scaMethods?: null;
                            chosenScaMethod?: null;
                            challengeData?: null;
                            _links?: {
                                scaRedirect?: string | null;
                                psuMessage?: string | null;
                                tppMessages?: string | null;
                                startAuthorisation?: string | null;
                            };
                            psuMessage?: null;
                            tppMessages?: null;
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/psd2/v1/payments/{product}/{paymentId}/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** GET /psd2/v1/payments/:product/:paymentId/status */
        get: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    product: string;
                    paymentId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            transactionStatus?: string;
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/psd2/v1/payments/{product}/{paymentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** GET /psd2/v1/payments/:product/:paymentId */
        get: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    product: string;
                    paymentId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            endToEndIdentification?: string | null;
                            debtorAccount?: {
                                iban?: string;
                                currency?: string | null;
                            };
                            creditorAccount?: {
                                iban?: string;
                                currency?: string | null;
                            };
                            instructedAmount?: {
                                currency?: string;
                                amount?: string;
                            };
                            creditorAgent?: string | null;
                            creditorName?: string;
                            creditorAddress?: {
                                street?: string | null;
                                buildingNumber?: string | null;
                                city?: string | null;
                                postalCode?: string | null;
                                country?: string;
                            } | null;
                            remittanceInformationUnstructured?: string | null;
                            transactionStatus?: string;
                            startDate?: string;
                            endDate?: string | null;
                            frequency?: string;
                            dayOfExecution?: string | null;
                            executionRule?: string | null;
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** DELETE /psd2/v1/payments/:product/:paymentId */
        delete: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    product: string;
                    paymentId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            transactionStatus?: string;
                            _links?: {
                                startAuthorisation?: string | null;
                                scaRedirect?: string | null;
                                scaStatus?: string | null;
                            };
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/psd2/v1/payments/{paymentId}/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** GET /psd2/v1/payments/:paymentId/status */
        get: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    paymentId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            transactionStatus?: string;
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/psd2/v1/payments/{paymentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** GET /psd2/v1/payments/:paymentId */
        get: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    paymentId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            endToEndIdentification?: string | null;
                            debtorAccount?: {
                                iban?: string;
                                currency?: string | null;
                            };
                            creditorAccount?: {
                                iban?: string;
                                currency?: string | null;
                            };
                            instructedAmount?: {
                                currency?: string;
                                amount?: string;
                            };
                            creditorAgent?: string | null;
                            creditorName?: string;
                            creditorAddress?: {
                                street?: string | null;
                                buildingNumber?: string | null;
                                city?: string | null;
                                postalCode?: string | null;
                                country?: string;
                            } | null;
                            remittanceInformationUnstructured?: string | null;
                            transactionStatus?: string;
                            startDate?: string;
                            endDate?: string | null;
                            frequency?: string;
                            dayOfExecution?: string | null;
                            executionRule?: string | null;
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/psd2/v1/payments/{product}/{paymentId}/authorisations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** GET /psd2/v1/payments/:product/:paymentId/authorisations */
        get: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    product: string;
                    paymentId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            authorisationIds?: string[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        /** POST /psd2/v1/payments/:product/:paymentId/authorisations */
        post: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    product: string;
                    paymentId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            scaStatus?: string;
                            authorisationId?: string;
                            _links?: {
                                scaRedirect?: string | null;
                                scaStatus?: string | null;
                            };
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/psd2/v1/payments/{product}/{paymentId}/authorisations/{authorisationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** GET /psd2/v1/payments/:product/:paymentId/authorisations/:authorisationId */
        get: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    product: string;
                    paymentId: string;
                    authorisationId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            scaStatus?: string;
                            chosenScaMethod?: {
                                authenticationType?: string;
                                authenticationMethodId?: string;
                                name?: string;
                            };
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        /** PUT /psd2/v1/payments/:product/:paymentId/authorisations/:authorisationId */
        put: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    product: string;
                    paymentId: string;
                    authorisationId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                405: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/psd2/v1/payments/{product}/{paymentId}/cancellation-authorisations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** GET /psd2/v1/payments/:product/:paymentId/cancellation-authorisations */
        get: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    product: string;
                    paymentId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            authorisationIds?: string[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        /** POST /psd2/v1/payments/:product/:paymentId/cancellation-authorisations */
        post: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    product: string;
                    paymentId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            scaStatus?: string;
                            authorisationId?: string;
                            _links?: {
                                scaRedirect?: string | null;
                                scaStatus?: string | null;
                            };
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/psd2/v1/payments/{product}/{paymentId}/cancellation-authorisations/{authorisationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** GET /psd2/v1/payments/:product/:paymentId/cancellation-authorisations/:authorisationId */
        get: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    product: string;
                    paymentId: string;
                    authorisationId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            scaStatus?: string;
                            chosenScaMethod?: {
                                authenticationType?: string;
                                authenticationMethodId?: string;
                                name?: string;
                            };
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        /** PUT /psd2/v1/payments/:product/:paymentId/cancellation-authorisations/:authorisationId */
        put: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    product: string;
                    paymentId: string;
                    authorisationId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                405: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/psd2/v1/periodic-payments/{product}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** POST /psd2/v1/periodic-payments/:product */
        post: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    product: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        debtorAccount: string | {
                            iban: string;
                            currency?: string;
                        };
                        creditorAccount: string | {
                            iban: string;
                            currency?: string;
                        };
                        creditorName: string;
                        instructedAmount: {
                            currency: string;
                            amount: string | number;
                        };
                        creditorAddress?: {
                            street?: string;
                            streetName?: string;
                            buildingNumber?: string;
                            city?: string;
                            townName?: string;
                            postalCode?: string;
                            postCode?: string;
                            country: string;
                        };
                        creditorAgent?: string;
                        remittanceInformationUnstructured?: string;
                        endToEndIdentification?: string;
                        startDate: string;
                        endDate?: string;
                        frequency: string;
                        dayOfExecution?: string;
                        executionRule?: string;
                    };
                };
            };
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            paymentId?: string;
                            transactionStatus?: string | null;
                            transactionFees?: null;
                            transactionFeeIndicator?: null;
                            scaMethods?: null;
                            chosenScaMethod?: null;
                            challengeData?: null;
                            _links?: {
                                scaRedirect?: string | null;
                                psuMessage?: string | null;
                                tppMessages?: string | null;
                                startAuthorisation?: string | null;
                            };
                            psuMessage?: null;
                            tppMessages?: null;
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/psd2/v1/periodic-payments/{product}/{paymentId}/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** GET /psd2/v1/periodic-payments/:product/:paymentId/status */
        get: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    product: string;
                    paymentId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            transactionStatus?: string;
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/psd2/v1/periodic-payments/{product}/{paymentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** GET /psd2/v1/periodic-payments/:product/:paymentId */
        get: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    product: string;
                    paymentId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            endToEndIdentification?: string | null;
                            debtorAccount?: {
                                iban?: string;
                                currency?: string | null;
                            };
                            creditorAccount?: {
                                iban?: string;
                                currency?: string | null;
                            };
                            instructedAmount?: {
                                currency?: string;
                                amount?: string;
                            };
                            creditorAgent?: string | null;
                            creditorName?: string;
                            creditorAddress?: {
                                street?: string | null;
                                buildingNumber?: string | null;
                                city?: string | null;
                                postalCode?: string | null;
                                country?: string;
                            } | null;
                            remittanceInformationUnstructured?: string | null;
                            transactionStatus?: string;
                            startDate?: string;
                            endDate?: string | null;
                            frequency?: string;
                            dayOfExecution?: string | null;
                            executionRule?: string | null;
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** DELETE /psd2/v1/periodic-payments/:product/:paymentId */
        delete: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    product: string;
                    paymentId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            transactionStatus?: string;
                            _links?: {
                                startAuthorisation?: string | null;
                                scaRedirect?: string | null;
                                scaStatus?: string | null;
                            };
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/psd2/v1/periodic-payments/{product}/{paymentId}/authorisations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** GET /psd2/v1/periodic-payments/:product/:paymentId/authorisations */
        get: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    product: string;
                    paymentId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            authorisationIds?: string[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        /** POST /psd2/v1/periodic-payments/:product/:paymentId/authorisations */
        post: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    product: string;
                    paymentId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            scaStatus?: string;
                            authorisationId?: string;
                            _links?: {
                                scaRedirect?: string | null;
                                scaStatus?: string | null;
                            };
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/psd2/v1/periodic-payments/{product}/{paymentId}/authorisations/{authorisationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** GET /psd2/v1/periodic-payments/:product/:paymentId/authorisations/:authorisationId */
        get: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    product: string;
                    paymentId: string;
                    authorisationId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            scaStatus?: string;
                            chosenScaMethod?: {
                                authenticationType?: string;
                                authenticationMethodId?: string;
                                name?: string;
                            };
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        /** PUT /psd2/v1/periodic-payments/:product/:paymentId/authorisations/:authorisationId */
        put: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    product: string;
                    paymentId: string;
                    authorisationId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                405: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/psd2/v1/periodic-payments/{product}/{paymentId}/cancellation-authorisations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** GET /psd2/v1/periodic-payments/:product/:paymentId/cancellation-authorisations */
        get: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    product: string;
                    paymentId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            authorisationIds?: string[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        /** POST /psd2/v1/periodic-payments/:product/:paymentId/cancellation-authorisations */
        post: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    product: string;
                    paymentId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            scaStatus?: string;
                            authorisationId?: string;
                            _links?: {
                                scaRedirect?: string | null;
                                scaStatus?: string | null;
                            };
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/psd2/v1/periodic-payments/{product}/{paymentId}/cancellation-authorisations/{authorisationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** GET /psd2/v1/periodic-payments/:product/:paymentId/cancellation-authorisations/:authorisationId */
        get: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    product: string;
                    paymentId: string;
                    authorisationId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            scaStatus?: string;
                            chosenScaMethod?: {
                                authenticationType?: string;
                                authenticationMethodId?: string;
                                name?: string;
                            };
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        /** PUT /psd2/v1/periodic-payments/:product/:paymentId/cancellation-authorisations/:authorisationId */
        put: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    product: string;
                    paymentId: string;
                    authorisationId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                405: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/psd2/v1/bulk-payments/{product}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** POST /psd2/v1/bulk-payments/:product */
        post: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    product: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        batchBookingPreferred?: boolean;
                        debtorAccount: string | {
                            iban: string;
                            currency?: string;
                        };
                        requestedExecutionDate?: string;
                        payments: {
                            creditorAccount: string | {
                                iban: string;
                                currency?: string;
                            };
                            creditorName: string;
                            instructedAmount: {
                                currency: string;
                                amount: string | number;
                            };
                            creditorAddress?: {
                                street?: string;
                                streetName?: string;
                                buildingNumber?: string;
                                city?: string;
                                townName?: string;
                                postalCode?: string;
                                postCode?: string;
                                country: string;
                            };
                            creditorAgent?: string;
                            remittanceInformationUnstructured?: string;
                            endToEndIdentification?: string;
                        }[];
                    };
                };
            };
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            paymentId?: string;
                            transactionStatus?: string | null;
                            transactionFees?: null;
                            transactionFeeIndicator?: null;
                            scaMethods?: null;
                            chosenScaMethod?: null;
                            challengeData?: null;
                            _links?: {
                                scaRedirect?: string | null;
                                psuMessage?: string | null;
                                tppMessages?: string | null;
                                startAuthorisation?: string | null;
                            };
                            psuMessage?: null;
                            tppMessages?: null;
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/psd2/v1/bulk-payments/{product}/{paymentId}/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** GET /psd2/v1/bulk-payments/:product/:paymentId/status */
        get: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    product: string;
                    paymentId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            transactionStatus?: string;
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/psd2/v1/bulk-payments/{product}/{paymentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** GET /psd2/v1/bulk-payments/:product/:paymentId */
        get: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    product: string;
                    paymentId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            batchBookingPreferred?: boolean;
                            debtorAccount?: {
                                iban?: string;
                                currency?: string | null;
                            };
                            requestedExecutionDate?: string | null;
                            payments?: {
                                endToEndIdentification?: string | null;
                                creditorAccount?: {
                                    iban?: string;
                                    currency?: string | null;
                                };
                                instructedAmount?: {
                                    currency?: string;
                                    amount?: string;
                                };
                                creditorAgent?: string | null;
                                creditorName?: string;
                                creditorAddress?: {
                                    street?: string | null;
                                    buildingNumber?: string | null;
                                    city?: string | null;
                                    postalCode?: string | null;
                                    country?: string;
                                } | null;
                                remittanceInformationUnstructured?: string | null;
                                transactionStatus?: string;
                                startDate?: string;
                                endDate?: string | null;
                                frequency?: string;
                                dayOfExecution?: string | null;
                                executionRule?: string | null;
                            }[];
                            transactionStatus?: string;
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** DELETE /psd2/v1/bulk-payments/:product/:paymentId */
        delete: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    product: string;
                    paymentId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            transactionStatus?: string;
                            _links?: {
                                startAuthorisation?: string | null;
                                scaRedirect?: string | null;
                                scaStatus?: string | null;
                            };
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/psd2/v1/bulk-payments/{product}/{paymentId}/authorisations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** GET /psd2/v1/bulk-payments/:product/:paymentId/authorisations */
        get: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    product: string;
                    paymentId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            authorisationIds?: string[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        /** POST /psd2/v1/bulk-payments/:product/:paymentId/authorisations */
        post: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    product: string;
                    paymentId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            scaStatus?: string;
                            authorisationId?: string;
                            _links?: {
                                scaRedirect?: string | null;
                                scaStatus?: string | null;
                            };
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/psd2/v1/bulk-payments/{product}/{paymentId}/authorisations/{authorisationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** GET /psd2/v1/bulk-payments/:product/:paymentId/authorisations/:authorisationId */
        get: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    product: string;
                    paymentId: string;
                    authorisationId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            scaStatus?: string;
                            chosenScaMethod?: {
                                authenticationType?: string;
                                authenticationMethodId?: string;
                                name?: string;
                            };
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        /** PUT /psd2/v1/bulk-payments/:product/:paymentId/authorisations/:authorisationId */
        put: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    product: string;
                    paymentId: string;
                    authorisationId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                405: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/psd2/v1/bulk-payments/{product}/{paymentId}/cancellation-authorisations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** GET /psd2/v1/bulk-payments/:product/:paymentId/cancellation-authorisations */
        get: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    product: string;
                    paymentId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            authorisationIds?: string[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        /** POST /psd2/v1/bulk-payments/:product/:paymentId/cancellation-authorisations */
        post: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    product: string;
                    paymentId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            scaStatus?: string;
                            authorisationId?: string;
                            _links?: {
                                scaRedirect?: string | null;
                                scaStatus?: string | null;
                            };
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/psd2/v1/bulk-payments/{product}/{paymentId}/cancellation-authorisations/{authorisationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** GET /psd2/v1/bulk-payments/:product/:paymentId/cancellation-authorisations/:authorisationId */
        get: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    product: string;
                    paymentId: string;
                    authorisationId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            scaStatus?: string;
                            chosenScaMethod?: {
                                authenticationType?: string;
                                authenticationMethodId?: string;
                                name?: string;
                            };
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        /** PUT /psd2/v1/bulk-payments/:product/:paymentId/cancellation-authorisations/:authorisationId */
        put: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    product: string;
                    paymentId: string;
                    authorisationId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                405: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/psd2/v1/consents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** POST /psd2/v1/consents */
        post: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        access: {
                            accounts?: (((string | unknown | unknown | unknown) | ({
                                iban?: string;
                                maskedPan?: string;
                                pan?: string;
                                currency?: string;
                            } | string | unknown | unknown | unknown)) | string | unknown | unknown | unknown)[];
                            balances?: (((string | unknown | unknown | unknown) | ({
                                iban?: string;
                                maskedPan?: string;
                                pan?: string;
                                currency?: string;
                            } | string | unknown | unknown | unknown)) | string | unknown | unknown | unknown)[];
                            transactions?: (((string | unknown | unknown | unknown) | ({
                                iban?: string;
                                maskedPan?: string;
                                pan?: string;
                                currency?: string;
                            } | string | unknown | unknown | unknown)) | string | unknown | unknown | unknown)[];
                            availableAccounts?: string;
                            availableAccountsWithBalance?: string;
                            allPsd2?: string;
                        };
                        recurringIndicator: boolean;
                        validUntil: string;
                        frequencyPerDay: number;
                        combinedServiceIndicator: boolean;
                    };
                };
            };
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            consentStatus?: string;
                            consentId?: string;
                            scaMethods?: null;
                            chosenScaMethod?: null;
                            challengeData?: null;
                            _links?: {
                                scaStatus?: string | null;
                                scaRedirect?: string | null;
                                startAuthorisation?: string | null;
                            };
                            message?: null;
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/psd2/v1/consents/{consentId}/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** GET /psd2/v1/consents/:consentId/status */
        get: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    consentId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            consentStatus?: string;
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/psd2/v1/consent/{consentId}/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** GET /psd2/v1/consent/:consentId/status */
        get: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    consentId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            consentStatus?: string;
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/consent/{consentId}/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** GET /consent/:consentId/status */
        get: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    consentId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            consentStatus?: string;
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/psd2/v1/consents/{consentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** GET /psd2/v1/consents/:consentId */
        get: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    consentId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            access?: {
                                accounts?: {
                                    iban?: string;
                                    maskedPan?: string;
                                    currency?: string;
                                }[];
                                balances?: {
                                    iban?: string;
                                    maskedPan?: string;
                                    currency?: string;
                                }[];
                                transactions?: {
                                    iban?: string;
                                    maskedPan?: string;
                                    currency?: string;
                                }[];
                                availableAccounts?: string | null;
                                availableAccountsWithBalance?: string | null;
                                allPsd2?: string | null;
                            };
                            recurringIndicator?: boolean;
                            validUntil?: string;
                            frequencyPerDay?: number;
                            lastActionDate?: string;
                            consentStatus?: string;
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** DELETE /psd2/v1/consents/:consentId */
        delete: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    consentId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/psd2/v1/consents/{consentId}/authorisations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** GET /psd2/v1/consents/:consentId/authorisations */
        get: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    consentId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            authorisationIds?: string[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        /** POST /psd2/v1/consents/:consentId/authorisations */
        post: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    consentId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            scaStatus?: string;
                            authorisationId?: string;
                            _links?: {
                                scaRedirect?: string | null;
                                scaStatus?: string | null;
                            };
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/psd2/v1/consents/{consentId}/authorisations/{authorisationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** GET /psd2/v1/consents/:consentId/authorisations/:authorisationId */
        get: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    consentId: string;
                    authorisationId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            scaStatus?: string;
                            chosenScaMethod?: {
                                authenticationType?: string;
                                authenticationMethodId?: string;
                                name?: string;
                            };
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        /** PUT /psd2/v1/consents/:consentId/authorisations/:authorisationId */
        put: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    consentId: string;
                    authorisationId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                405: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/psd2/v1/accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** GET /psd2/v1/accounts */
        get: {
            parameters: {
                query?: {
                    withBalance?: "true" | "false";
                };
                header: {
                    "X-Request-ID": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            accounts?: {
                                ownerName?: string | null;
                                resourceId?: string;
                                iban?: string;
                                bban?: string | null;
                                msisdn?: string | null;
                                currency?: string;
                                name?: string | null;
                                product?: string | null;
                                cashAccountType?: string | null;
                                status?: string;
                                bic?: string | null;
                                linkedAccounts?: string | null;
                                usage?: string | null;
                                details?: string | null;
                                balances?: {
                                    balanceAmount?: {
                                        currency?: string;
                                        amount?: string;
                                    };
                                    balanceType?: string;
                                    creditLimitIncluded?: boolean;
                                    referenceDate?: string | null;
                                    lastChangeDateTime?: string | null;
                                }[] | null;
                                _links?: null;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/psd2/v1/accounts/{accountId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** GET /psd2/v1/accounts/:accountId */
        get: {
            parameters: {
                query?: {
                    withBalance?: "true" | "false";
                };
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    accountId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            account?: {
                                ownerName?: string | null;
                                resourceId?: string;
                                iban?: string;
                                bban?: string | null;
                                msisdn?: string | null;
                                currency?: string;
                                name?: string | null;
                                product?: string | null;
                                cashAccountType?: string | null;
                                status?: string;
                                bic?: string | null;
                                linkedAccounts?: string | null;
                                usage?: string | null;
                                details?: string | null;
                                balances?: {
                                    balanceAmount?: {
                                        currency?: string;
                                        amount?: string;
                                    };
                                    balanceType?: string;
                                    creditLimitIncluded?: boolean;
                                    referenceDate?: string | null;
                                    lastChangeDateTime?: string | null;
                                }[] | null;
                                _links?: null;
                            };
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/psd2/v1/accounts/{accountId}/balances": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** GET /psd2/v1/accounts/:accountId/balances */
        get: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    accountId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            account?: {
                                iban?: string;
                                currency?: string | null;
                            };
                            balances?: {
                                balanceAmount?: {
                                    currency?: string;
                                    amount?: string;
                                };
                                balanceType?: string;
                                creditLimitIncluded?: boolean;
                                referenceDate?: string | null;
                                lastChangeDateTime?: string | null;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/psd2/v1/accounts/{accountId}/transactions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** GET /psd2/v1/accounts/:accountId/transactions */
        get: {
            parameters: {
                query?: {
                    dateFrom?: string;
                    dateTo?: string;
                    entryReferenceFrom?: string;
                    bookingStatus?: string;
                    deltaList?: string;
                    withBalance?: "true" | "false";
                    pageIndex?: string;
                    itemsPerPage?: string;
                };
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    accountId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            account?: {
                                iban?: string;
                                currency?: string | null;
                            };
                            transactions?: {
                                booked?: {
                                    transactionId?: string;
                                    entryReference?: string;
                                    endToEndId?: string | null;
                                    bookingDate?: string;
                                    valueDate?: string;
                                    transactionAmount?: {
                                        currency?: string;
                                        amount?: string;
                                    };
                                    creditorName?: string | null;
                                    creditorAccount?: {
                                        iban?: string;
                                    } | null;
                                    debtorName?: string | null;
                                    debtorAccount?: {
                                        iban?: string;
                                    } | null;
                                    remittanceInformationUnstructured?: string | null;
                                    bankTransactionCode?: string | null;
                                    balanceAfterTransaction?: {
                                        balanceType?: string;
                                        balanceAmount?: {
                                            currency?: string;
                                            amount?: string;
                                        };
                                    };
                                }[] | null;
                                pending?: {
                                    transactionId?: string;
                                    endToEndId?: string | null;
                                    valueDate?: string;
                                    transactionAmount?: {
                                        currency?: string;
                                        amount?: string;
                                    };
                                    creditorName?: string | null;
                                    creditorAccount?: {
                                        iban?: string;
                                    } | null;
                                    debtorName?: string | null;
                                    debtorAccount?: {
                                        iban?: string;
                                    } | null;
                                    remittanceInformationUnstructured?: string | null;
                                    bankTransactionCode?: string | null;
                                }[] | null;
                                information?: {
                                    transactionId?: string;
                                    endToEndId?: string | null;
                                    transactionAmount?: {
                                        currency?: string;
                                        amount?: string;
                                    };
                                    creditorName?: string;
                                    creditorAccount?: {
                                        iban?: string;
                                    };
                                    remittanceInformationUnstructured?: string | null;
                                    additionalInformationStructured?: {
                                        standingOrderDetails?: {
                                            startDate?: string;
                                            endDate?: string | null;
                                            frequency?: string;
                                            dayOfExecution?: string | null;
                                            executionRule?: string | null;
                                        };
                                    } | null;
                                }[];
                                _links?: {
                                    account?: string;
                                    first?: string;
                                    next?: string | null;
                                    previous?: string | null;
                                    last?: string | null;
                                };
                            };
                            balances?: {
                                balanceAmount?: {
                                    currency?: string;
                                    amount?: string;
                                };
                                balanceType?: string;
                                creditLimitIncluded?: boolean;
                                referenceDate?: string | null;
                                lastChangeDateTime?: string | null;
                            }[] | null;
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/psd2/v1/accounts/{accountId}/transactions/{transactionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** GET /psd2/v1/accounts/:accountId/transactions/:transactionId */
        get: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    accountId: string;
                    transactionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            transactionsDetails?: {
                                transactionId?: string;
                                entryReference?: string;
                                endToEndId?: string | null;
                                bookingDate?: string;
                                valueDate?: string;
                                transactionAmount?: {
                                    currency?: string;
                                    amount?: string;
                                };
                                creditorName?: string | null;
                                creditorAccount?: {
                                    iban?: string;
                                } | null;
                                debtorName?: string | null;
                                debtorAccount?: {
                                    iban?: string;
                                } | null;
                                remittanceInformationUnstructured?: string | null;
                                bankTransactionCode?: string | null;
                                balanceAfterTransaction?: {
                                    balanceType?: string;
                                    balanceAmount?: {
                                        currency?: string;
                                        amount?: string;
                                    };
                                };
                            };
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/psd2/v1/card-accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** GET /psd2/v1/card-accounts */
        get: {
            parameters: {
                query?: {
                    withBalance?: "true" | "false";
                };
                header: {
                    "X-Request-ID": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            cardAccounts?: {
                                resourceId?: string;
                                maskedPan?: string;
                                currency?: string;
                                ownerName?: string | null;
                                name?: string | null;
                                product?: string | null;
                                debitAccounting?: boolean;
                                status?: string;
                                usage?: string | null;
                                details?: null;
                                creditLimit?: {
                                    currency?: string;
                                    amount?: string;
                                };
                                balances?: {
                                    balanceAmount?: {
                                        currency?: string;
                                        amount?: string;
                                    };
                                    balanceType?: string;
                                    creditLimitIncluded?: boolean;
                                    referenceDate?: string | null;
                                    lastChangeDateTime?: string | null;
                                }[] | null;
                                _links?: null;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/psd2/v1/card-accounts/{accountId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** GET /psd2/v1/card-accounts/:accountId */
        get: {
            parameters: {
                query?: {
                    withBalance?: "true" | "false";
                };
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    accountId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            cardAccount?: {
                                resourceId?: string;
                                maskedPan?: string;
                                currency?: string;
                                ownerName?: string | null;
                                name?: string | null;
                                product?: string | null;
                                debitAccounting?: boolean;
                                status?: string;
                                usage?: string | null;
                                details?: null;
                                creditLimit?: {
                                    currency?: string;
                                    amount?: string;
                                };
                                balances?: {
                                    balanceAmount?: {
                                        currency?: string;
                                        amount?: string;
                                    };
                                    balanceType?: string;
                                    creditLimitIncluded?: boolean;
                                    referenceDate?: string | null;
                                    lastChangeDateTime?: string | null;
                                }[] | null;
                                _links?: null;
                            };
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/psd2/v1/card-accounts/{accountId}/balances": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** GET /psd2/v1/card-accounts/:accountId/balances */
        get: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    accountId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            cardAccount?: {
                                maskedPan?: string;
                                currency?: string;
                            };
                            balances?: {
                                balanceAmount?: {
                                    currency?: string;
                                    amount?: string;
                                };
                                balanceType?: string;
                                creditLimitIncluded?: boolean;
                                referenceDate?: string | null;
                                lastChangeDateTime?: string | null;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/psd2/v1/card-accounts/{accountId}/transactions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** GET /psd2/v1/card-accounts/:accountId/transactions */
        get: {
            parameters: {
                query?: {
                    dateFrom?: string;
                    dateTo?: string;
                    entryReferenceFrom?: string;
                    bookingStatus?: string;
                    deltaList?: string;
                    withBalance?: "true" | "false";
                    pageIndex?: string;
                    itemsPerPage?: string;
                };
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    accountId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            cardAccount?: {
                                maskedPan?: string;
                                currency?: string;
                            };
                            debitAccounting?: boolean;
                            cardTransactions?: {
                                booked?: {
                                    cardTransactionId?: string;
                                    terminalId?: null;
                                    transactionDate?: string;
                                    acceptorTransactionDateTime?: string | null;
                                    bookingDate?: string;
                                    valueDate?: string;
                                    transactionAmount?: {
                                        currency?: string;
                                        amount?: string;
                                    };
                                    currencyExchange?: {
                                        sourceCurrency?: string;
                                        exchangeRate?: string;
                                        unitCurrency?: string;
                                        targetCurrency?: string;
                                        quotationDate?: string;
                                    }[] | null;
                                    originalAmount?: {
                                        currency?: string;
                                        amount?: string;
                                    } | null;
                                    cardAcceptorId?: string | null;
                                    cardAcceptorAddress?: {
                                        townName?: string;
                                        country?: string | null;
                                    } | null;
                                    merchantCategoryCode?: string | null;
                                    maskedPAN?: string;
                                    transactionDetails?: string | null;
                                    invoiced?: null;
                                    proprietaryBankTransactionCode?: string | null;
                                }[] | null;
                                pending?: {
                                    cardTransactionId?: string;
                                    terminalId?: null;
                                    transactionDate?: string;
                                    acceptorTransactionDateTime?: string | null;
                                    bookingDate?: string;
                                    valueDate?: string;
                                    transactionAmount?: {
                                        currency?: string;
                                        amount?: string;
                                    };
                                    currencyExchange?: {
                                        sourceCurrency?: string;
                                        exchangeRate?: string;
                                        unitCurrency?: string;
                                        targetCurrency?: string;
                                        quotationDate?: string;
                                    }[] | null;
                                    originalAmount?: {
                                        currency?: string;
                                        amount?: string;
                                    } | null;
                                    cardAcceptorId?: string | null;
                                    cardAcceptorAddress?: {
                                        townName?: string;
                                        country?: string | null;
                                    } | null;
                                    merchantCategoryCode?: string | null;
                                    maskedPAN?: string;
                                    transactionDetails?: string | null;
                                    invoiced?: null;
                                    proprietaryBankTransactionCode?: string | null;
                                }[] | null;
                                _links?: {
                                    cardAccount?: string;
                                    first?: string;
                                    next?: string | null;
                                    previous?: string | null;
                                    last?: string | null;
                                };
                            };
                            balances?: {
                                balanceAmount?: {
                                    currency?: string;
                                    amount?: string;
                                };
                                balanceType?: string;
                                creditLimitIncluded?: boolean;
                                referenceDate?: string | null;
                                lastChangeDateTime?: string | null;
                            }[] | null;
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/psd2/v1/consents/confirmation-of-funds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** POST /psd2/v1/consents/confirmation-of-funds */
        post: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        account: string | {
                            iban: string;
                            currency?: string;
                        };
                        cardNumber?: string;
                        cardExpiryDate?: string;
                        cardInformation?: string;
                        registrationInformation?: string;
                    };
                };
            };
            responses: {
                /** @description Success */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            consentStatus?: string;
                            consentId?: string;
                            _links?: {
                                scaRedirect?: string | null;
                                self?: string | null;
                                status?: string | null;
                            };
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/psd2/v1/consents/confirmation-of-funds/{consentId}/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** GET /psd2/v1/consents/confirmation-of-funds/:consentId/status */
        get: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    consentId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            consentStatus?: string;
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/psd2/v1/consents/confirmation-of-funds/{consentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** GET /psd2/v1/consents/confirmation-of-funds/:consentId */
        get: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path: {
                    consentId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            account?: {
                                iban?: string;
                            };
                            consentStatus?: string;
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/psd2/v1/funds-confirmations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** POST /psd2/v1/funds-confirmations */
        post: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        account: ((string | unknown | unknown | unknown) | ({
                            iban?: string;
                            maskedPan?: string;
                            pan?: string;
                            currency?: string;
                        } | string | unknown | unknown | unknown)) | string | unknown | unknown | unknown;
                        cardNumber?: string;
                        payee?: string;
                        instructedAmount: {
                            currency: string;
                            amount: string | number;
                        };
                    };
                };
            };
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            fundsAvailable?: boolean;
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
                /** @description Refused (Berlin Group tppMessages) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tppMessages?: {
                                category?: string;
                                code?: string;
                                path?: string;
                                text?: string;
                            }[];
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** GET /health */
        get: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** GET /ready */
        get: {
            parameters: {
                query?: never;
                header: {
                    "X-Request-ID": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: never;
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
