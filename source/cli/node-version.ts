/**
 * The oldest Node.js the npm bin runs on, and the one line it prints under an older one. Pure, and free of
 * syntax or APIs newer than Node 12: source/bin.ts runs it before loading anything that would crash there
 * (an old Node otherwise dies inside a bundled dependency with an unrelated message).
 */
export const minimumNode = {major: 22, minor: 19} as const;

/** undefined when `version` (process.versions.node, e.g. `20.20.2`) is new enough, else the message. */
export function unsupportedNodeMessage(version: string): string | undefined {
	const [major = Number.NaN, minor = Number.NaN] = version.split('.').map(Number);
	if (major > minimumNode.major || (major === minimumNode.major && minor >= minimumNode.minor)) {
		return undefined;
	}

	return `needs Node.js ${minimumNode.major}.${minimumNode.minor} or newer (this is v${version}); or use the standalone executable`;
}
