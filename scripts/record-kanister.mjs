#!/usr/bin/env node
/**
 * Re-record test/fixtures/kanister-recorded/ with the real Kanister controller (test/e2e/kanister-recorder.ts;
 * not part of CI). Node runs the TypeScript itself (type stripping); the hook maps the sources' `.js` imports to
 * their `.ts` files, as tsc's NodeNext resolution does.
 */
import {registerHooks} from 'node:module';

registerHooks({
	resolve(specifier, context, next) {
		try {
			return next(specifier, context);
		} catch (error) {
			if (specifier.startsWith('.') && specifier.endsWith('.js')) {
				return next(`${specifier.slice(0, -3)}.ts`, context);
			}

			throw error;
		}
	},
});

const {main} = await import('../test/e2e/kanister-recorder.ts');
process.exitCode = await main(process.argv.slice(2));
