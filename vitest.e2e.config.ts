import {defineConfig} from 'vitest/config';

// End-to-end tests against a real kube-apiserver + etcd on loopback
// (test/e2e/harness/cluster.ts). The first run may build kube-apiserver from
// the Go module proxy, which takes a long time on 2 cores: hence the hook timeout.
export default defineConfig({
	test: {
		include: ['test/e2e/**/*.test.ts'],
		// Prints the suite's tally (scenarios run, faults survived, objects compared, mismatches) at the end.
		globalSetup: ['test/helpers/dependency-patches-setup.ts', 'test/e2e/harness/summary.ts'],
		exclude: ['node_modules/**'],
		testTimeout: 120_000,
		hookTimeout: 1_800_000,
		teardownTimeout: 60_000,
		fileParallelism: false,
		// Child processes (etcd, kube-apiserver) are cleaned up by process exit
		// handlers, which only run in a real process, not a worker thread.
		pool: 'forks',
	},
});
