/** Types of sea-config.mjs for the tests that use it. */
export function seaConfig(options: {main: string; executable: string; output: string; codeCache: boolean}): {
	readonly main: string;
	readonly mainFormat: 'module';
	readonly executable: string;
	readonly output: string;
	readonly disableExperimentalSEAWarning: true;
	readonly useCodeCache: boolean;
	readonly useSnapshot: false;
	readonly execArgv: readonly string[];
	readonly execArgvExtension: 'none' | 'env' | 'cli';
};
