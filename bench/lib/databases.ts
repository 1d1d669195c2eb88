import pg from 'pg';

/** A new database named `name` on the cluster: one per checkout, since another checkout's migrations would stop its start. */
export async function newDatabase(clusterUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: clusterUrl });
  await client.connect();
  try {
    await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(clusterUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
