import {defineConfig} from 'vitest/config';

export default defineConfig({
	test: {
		include: ['test/**/*.test.{ts,tsx}'],
		exclude: ['test/e2e/**', 'node_modules/**'],
		globalSetup: ['test/helpers/dependency-patches-setup.ts'],
		testTimeout: 20_000,
	},
});
