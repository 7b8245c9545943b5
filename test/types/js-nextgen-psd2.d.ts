/** The package ships no types; this is the part of its API the interoperability test uses. */
declare module "js-nextgen-psd2" {
  interface SentRequest { request: string; status: number; headers: Record<string, string>; body: any }
  export default class PSD2Client {
    constructor(signingCertificate: Buffer, signingKey: Buffer, options?: { sslCertificate?: Buffer; sslKey?: Buffer; timeout?: number });
    send(method: string, url: string, headers: Record<string, string>, body?: unknown): Promise<SentRequest>;
  }
}
