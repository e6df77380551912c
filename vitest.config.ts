import {defineConfig} from 'vitest/config';

export default defineConfig({
	test: {
		include: ['test/**/*.test.{ts,tsx}'],
		exclude: ['test/e2e/**', 'node_modules/**'],
		testTimeout: 20_000,
	},
});
