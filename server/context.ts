/** What every part of the server is built from: the database, the configuration, the migrations applied. */
import type { Config } from "./config.ts";
import type { Db } from "./db/index.ts";

export interface ServerContext {
  db: Db;
  config: Config;
  migrations: number;
}
