import { randomUUID } from "node:crypto";
import { exportJWK, generateKeyPair, importJWK, type JWK, type CryptoKey } from "jose";
import type { Db } from "../db/index.ts";

export const SIGNING_ALG = "ES256";

export interface SigningKey {
  kid: string;
  alg: string;
  publicJwk: JWK;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
}

interface KeyRow {
  kid: string;
  alg: string;
  publicJwk: JWK;
  privateJwk: JWK;
}

/**
 * The asymmetric keys that sign access tokens, kept in signing_keys. The first start generates one;
 * several instances agree on the oldest key for signing, and publish every key in the JWKS.
 */
export class KeyStore {
  private keys = new Map<string, SigningKey>();
  private current?: SigningKey;

  constructor(private readonly db: Db) {}

  async init(): Promise<void> {
    await this.load();
    if (this.current) return;
    const { publicKey, privateKey } = await generateKeyPair(SIGNING_ALG, { extractable: true });
    const kid = randomUUID();
    const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: SIGNING_ALG, use: "sig" };
    const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: SIGNING_ALG };
    await this.db.query(
      `insert into signing_keys (kid, alg, "publicJwk", "privateJwk") select $1, $2, $3, $4
       where not exists (select 1 from signing_keys)`,
      [kid, SIGNING_ALG, JSON.stringify(publicJwk), JSON.stringify(privateJwk)],
    );
    await this.load();
    if (!this.current) throw new Error("no signing key could be created");
  }

  /** (Re)reads the keys; the oldest one signs. */
  async load(): Promise<void> {
    const { rows } = await this.db.query<KeyRow>(
      `select kid, alg, "publicJwk", "privateJwk" from signing_keys order by "createdAt", kid`,
    );
    const keys = new Map<string, SigningKey>();
    for (const row of rows) {
      const pub = typeof row.publicJwk === "string" ? JSON.parse(row.publicJwk) : row.publicJwk;
      const priv = typeof row.privateJwk === "string" ? JSON.parse(row.privateJwk) : row.privateJwk;
      const existing = this.keys.get(row.kid);
      keys.set(
        row.kid,
        existing ?? {
          kid: row.kid,
          alg: row.alg,
          publicJwk: pub,
          privateKey: (await importJWK(priv, row.alg)) as CryptoKey,
          publicKey: (await importJWK(pub, row.alg)) as CryptoKey,
        },
      );
    }
    this.keys = keys;
    this.current = rows.length ? keys.get(rows[0].kid) : undefined;
  }

  signingKey(): SigningKey {
    if (!this.current) throw new Error("signing keys not loaded");
    return this.current;
  }

  /** The public key of kid, reloading once from the database when another instance added it. */
  async publicKey(kid: string | undefined): Promise<CryptoKey | undefined> {
    if (!kid) return undefined;
    if (!this.keys.has(kid)) await this.load();
    return this.keys.get(kid)?.publicKey;
  }

  jwks(): { keys: JWK[] } {
    return { keys: [...this.keys.values()].map((k) => k.publicJwk) };
  }
}
