import type { Db } from "../../server/db/types.ts";
import type { Session } from "../../server/auth/types.ts";
import { configFromEnv, type Config } from "../../server/config.ts";
import { createEngine } from "../../server/graphql/engine.ts";
import type { HasuraMetadata } from "../../server/graphql/metadata/types.ts";
import { openTestDb, type Lane } from "../support/db.ts";

/** Test tables of their own (gql_*) in the lane's migrated database, tracked through replaceMetadata. */
export const TEST_ROWS_SQL = `
  insert into gql_author (name, email, bio, rating, big, secret) values
    ('Ada', 'ada@example.com', '{"lang": "en", "tags": ["math"]}', 4.5, 9007199254740993, 's1'),
    ('Brian', 'brian@example.com', '{"lang": "fr"}', 3.0, 2, 's2'),
    ('Chen', null, null, null, null, 's3');
  insert into gql_article (title, content, author_id, published, tags, views, score, published_on) values
    ('Alpha', 'first', 1, true, '["a","b"]', 10, 1.5, '2024-01-01'),
    ('Beta', 'second', 1, false, '["b"]', 20, 2.5, '2024-02-01'),
    ('Gamma', 'third', 2, true, '[]', 30, null, null),
    ('Delta', 'fourth', 2, false, '["c"]', 5, 0.5, '2024-03-01');
`;
export const TEST_SCHEMA_SQL = `
  create table gql_author (id serial primary key, name text not null, email text unique, bio jsonb, rating numeric(4,1), big bigint, is_active boolean not null default true, secret text, created_at timestamptz not null default now());
  create table gql_article (id serial primary key, title text not null, content text, author_id int references gql_author(id), published boolean not null default false, tags jsonb not null default '[]', views int not null default 0, score double precision, published_on date);
  ${TEST_ROWS_SQL}
`;

export const TEST_METADATA: HasuraMetadata = {
  version: 3,
  sources: [
    {
      name: "default",
      kind: "postgres",
      tables: [
        {
          table: { schema: "public", name: "gql_author" },
          array_relationships: [{ name: "articles", using: { foreign_key_constraint_on: { column: "author_id", table: { schema: "public", name: "gql_article" } } } }],
          select_permissions: [
            { role: "user", permission: { columns: ["id", "name", "email"], filter: { id: { _eq: "X-Hasura-User-Id" } } } },
            { role: "editor", permission: { columns: ["id", "name"], filter: {}, allow_aggregations: true } },
          ],
        },
        {
          table: { schema: "public", name: "gql_article" },
          object_relationships: [{ name: "author", using: { foreign_key_constraint_on: "author_id" } }],
          select_permissions: [
            { role: "user", permission: { columns: ["id", "title", "author_id", "published"], filter: { _or: [{ published: { _eq: true } }, { author_id: { _eq: "X-Hasura-User-Id" } }] }, limit: 100, allow_aggregations: true } },
            { role: "editor", permission: { columns: ["id", "title", "content", "published", "views"], filter: { published: { _eq: true } }, limit: 2 } },
          ],
          insert_permissions: [{ role: "user", permission: { columns: ["title", "content", "published"], check: { author_id: { _eq: "X-Hasura-User-Id" } }, set: { author_id: "X-Hasura-User-Id" } } }],
          update_permissions: [{ role: "user", permission: { columns: ["title", "content", "published"], filter: { author_id: { _eq: "X-Hasura-User-Id" } }, check: { title: { _neq: "" } } } }],
          delete_permissions: [{ role: "user", permission: { filter: { author_id: { _eq: "X-Hasura-User-Id" } } } }],
        },
      ],
    },
  ],
};

/** As the admin secret gives it (unbounded, as in Hasura). */
export const admin: Session = { roles: ["admin"], isAdmin: true, byAdminSecret: true, variables: {} };
export const user = (id: number | string, roles = ["user"]): Session => ({ roles, isAdmin: false, userId: String(id), variables: { "x-hasura-user-id": String(id) } });

export function testConfig(overrides: Partial<Config> = {}): Config {
  return { ...configFromEnv({}, []), seedDemo: false, ...overrides };
}

export async function openEngine(lane: Lane, overrides: Partial<Config> = {}) {
  const db: Db = await openTestDb(lane);
  await db.exec(TEST_SCHEMA_SQL);
  const config = testConfig(overrides);
  const engine = await createEngine({ db, config }, { metadataDir: "/nonexistent" });
  await engine.replaceMetadata(TEST_METADATA);
  const run = async (query: string, session: Session = admin, variables?: Record<string, unknown>) => (await engine.execute({ query, variables }, session)).body as { data?: Record<string, unknown>; errors?: { message: string; extensions: { code: string; path: string } }[] };
  return {
    db,
    engine,
    config,
    run,
    async close() {
      await engine.close();
      await db.close();
    },
  };
}
