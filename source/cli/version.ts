import packageJson from '../../package.json' with {type: 'json'};

/** The package version, bundled in at build time. */
export const version: string = packageJson.version;
