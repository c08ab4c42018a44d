/**
 * S3 storage for the reference topology: s3rver on 127.0.0.1:S3_PORT, its objects in S3_DIR, with
 * the `cubes` bucket made. Started by topology.mjs as a process of its own.
 */
import S3rver from 's3rver';

const server = new S3rver({
  address: '127.0.0.1',
  port: Number(process.env.S3_PORT),
  directory: process.env.S3_DIR,
  silent: true,
  configureBuckets: [{ name: 'cubes' }],
});
const { port } = await server.run();
console.log(`s3rver on http://127.0.0.1:${port}`);
const stop = () => server.close().finally(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
