/**
 * The install figures docs/install.md quotes, as text: scripts/install-figures.mjs measures and prints them (and
 * with --write puts them between the markers of docs/install.md); the tests compare the quoted text with what a
 * real `npm pack` (test/packaging/package.test.ts) and a real release build (test/e2e/standalone.test.ts) give.
 */

export const figuresStart = '<!-- install-figures: node scripts/install-figures.mjs --write -->';
export const figuresEnd = '<!-- /install-figures -->';

/** Megabytes with one decimal, as the docs quote them. */
export const mb = bytes => `${(bytes / 1e6).toFixed(1)} MB`;

/** The npm package's line from `npm pack --json`'s report: `{filename, size, unpackedSize}`. */
export function npmFigures(report) {
	return `npm package \`${report.filename}\`: ${mb(report.size)} download, ${mb(report.unpackedSize)} unpacked`;
}

export const archiveHeader = '| archive | download | executable |\n|---|---:|---:|';

/** One release archive's table row; executableBytes undefined when the unpacked executable is not there. */
export function archiveRow(name, archiveBytes, executableBytes) {
	return `| \`${name}\` | ${mb(archiveBytes)} | ${executableBytes === undefined ? '?' : mb(executableBytes)} |`;
}

/** The text between the markers of `doc`, or undefined when they are missing. */
export function quotedFigures(doc) {
	const start = doc.indexOf(figuresStart);
	const end = doc.indexOf(figuresEnd);
	return start === -1 || end < start ? undefined : doc.slice(start + figuresStart.length, end).trim();
}

/** `doc` with `block` between the markers (which must be there). */
export function withFigures(doc, block) {
	const start = doc.indexOf(figuresStart);
	const end = doc.indexOf(figuresEnd);
	if (start === -1 || end < start) {
		throw new Error(`the markers ${figuresStart} … ${figuresEnd} are missing`);
	}

	return `${doc.slice(0, start + figuresStart.length)}\n${block}\n${doc.slice(end)}`;
}
