/**
 * The job runner's metrics, in prom-client's default registry (whoever serves /metrics serves
 * them): jobs queued by this instance, jobs running in it now and jobs that failed in it, each by
 * job name. Every instance counts its own; the sums across instances are the fleet's.
 */
import { Counter, Gauge, register } from 'prom-client';

function counter(name: string, help: string): Counter<'job'> {
  // One definition per process even when this module is evaluated again (test isolation).
  return (
    (register.getSingleMetric(name) as Counter<'job'> | undefined) ??
    new Counter({ name, help, labelNames: ['job'] })
  );
}

function gauge(name: string, help: string): Gauge<'job'> {
  return (
    (register.getSingleMetric(name) as Gauge<'job'> | undefined) ??
    new Gauge({ name, help, labelNames: ['job'] })
  );
}

export const jobsQueued = counter('cubes_jobs_queued_total', 'Jobs queued by this instance, by job name');
export const jobsRunning = gauge('cubes_jobs_running', 'Jobs running in this instance now, by job name');
export const jobsFailed = counter(
  'cubes_jobs_failed_total',
  'Job runs that failed in this instance (each is retried while it has retries left), by job name',
);
