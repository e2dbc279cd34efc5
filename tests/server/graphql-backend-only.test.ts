/**
 * Hasura's backend-only mutations (issue 18 §6): a mutation permission marked `backend_only` exists for its role
 * only when the request carries the admin secret and `x-hasura-use-backend-only-permissions: true` (a trusted
 * backend acting as the role); a signed-in user of the role, or the admin secret without the header, does not
 * see it. Mutations of the role without the flag stay visible in both cases.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseLanes } from "../support/db.ts";
import { openEngine, TEST_METADATA } from "./graphql-helpers.ts";
import { sessionFromHeaders } from "../../server/graphql/http/session.ts";
import type { Session } from "../../server/auth/types.ts";
import type { HasuraMetadata, TableMetadata } from "../../server/graphql/metadata/types.ts";

function withServiceRole(md: HasuraMetadata): HasuraMetadata {
  const copy = structuredClone(md);
  const article = copy.sources[0].tables.find((t) => t.table.name === "gql_article") as TableMetadata;
  article.select_permissions!.push({ role: "service", permission: { columns: ["id", "title", "author_id"], filter: {} } });
  article.insert_permissions!.push({ role: "service", permission: { columns: ["title", "author_id"], check: {}, backend_only: true } });
  article.update_permissions!.push({ role: "service", permission: { columns: ["title"], filter: {} } });
  article.delete_permissions!.push({ role: "service", permission: { filter: {}, backend_only: true } });
  return copy;
}

describe("x-hasura-use-backend-only-permissions is read only with the admin secret", () => {
  const config = { adminSecret: "s3cret" };
  it("sets the flag with the secret and the header, not without either", async () => {
    const backend = await sessionFromHeaders({ "x-hasura-admin-secret": "s3cret", "x-hasura-role": "service", "x-hasura-use-backend-only-permissions": "true" }, config, undefined);
    expect(backend).toMatchObject({ roles: ["service"], isAdmin: false, byAdminSecret: true, useBackendOnlyPermissions: true });
    const plain = await sessionFromHeaders({ "x-hasura-admin-secret": "s3cret", "x-hasura-role": "service" }, config, undefined);
    expect(plain.useBackendOnlyPermissions).toBe(false);
    const verifier = { verifyAccessToken: async () => ({ userId: "1", username: "svc", claims: { "x-hasura-allowed-roles": ["service"], "x-hasura-default-role": "service", "x-hasura-user-id": "1" } }) };
    const signedIn = await sessionFromHeaders({ authorization: "Bearer t", "x-hasura-use-backend-only-permissions": "true" }, config, verifier);
    expect(signedIn.useBackendOnlyPermissions).toBeFalsy();
  });
});

describe.each(databaseLanes())("backend-only mutations (%s)", (lane) => {
  let t: Awaited<ReturnType<typeof openEngine>>;
  beforeAll(async () => {
    t = await openEngine(lane);
    await t.engine.replaceMetadata(withServiceRole(TEST_METADATA));
  });
  afterAll(async () => t?.close());

  const signedIn: Session = { roles: ["service"], isAdmin: false, userId: "1", variables: { "x-hasura-user-id": "1" } };
  const secretOnly: Session = { ...signedIn, byAdminSecret: true };
  const backend: Session = { ...signedIn, byAdminSecret: true, useBackendOnlyPermissions: true };
  const forged: Session = { ...signedIn, useBackendOnlyPermissions: true }; // the flag without the secret counts for nothing
  const insert = `mutation { insert_gql_article(objects: [{title: "From the backend", author_id: 2}]) { affected_rows returning { title author_id } } }`;
  const remove = `mutation { delete_gql_article(where: {title: {_eq: "From the backend"}}) { affected_rows } }`;

  it("hides the backend-only insert and delete from a signed-in user, the secret without the header and a forged flag", async () => {
    for (const session of [signedIn, secretOnly, forged]) {
      const ins = await t.run(insert, session);
      expect(ins.errors?.[0]).toMatchObject({ message: "field 'insert_gql_article' not found in type: 'mutation_root'", extensions: { code: "validation-failed" } });
      const del = await t.run(remove, session);
      expect(del.errors?.[0].message).toBe("field 'delete_gql_article' not found in type: 'mutation_root'");
    }
    const count = await t.db.query<{ n: number }>(`select count(*)::int as n from gql_article where title = 'From the backend'`);
    expect(count.rows[0].n).toBe(0);
  });

  it("lets the trusted backend insert and delete as the role", async () => {
    expect((await t.run(insert, backend)).data).toEqual({ insert_gql_article: { affected_rows: 1, returning: [{ title: "From the backend", author_id: 2 }] } });
    expect((await t.run(remove, backend)).data).toEqual({ delete_gql_article: { affected_rows: 1 } });
  });

  it("keeps the role's other mutations in both scenarios", async () => {
    const update = `mutation { update_gql_article(where: {id: {_eq: 4}}, _set: {title: "Delta"}) { affected_rows } }`;
    for (const session of [signedIn, secretOnly, backend]) expect((await t.run(update, session)).data).toEqual({ update_gql_article: { affected_rows: 1 } });
  });
});
