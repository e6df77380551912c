/**
 * The krew plugin manifest (krew.sigs.k8s.io/docs/developer-guide/plugin-manifest/): one platform per archive,
 * selected by os/arch, with the archive's sha256. Written as YAML with every string JSON-quoted (JSON strings
 * are YAML strings), so no value needs YAML escaping rules.
 */
const q = JSON.stringify;

/**
 * `placeholder`: nothing is uploaded at baseUrl yet (the default URL before a release): the manifest says so in a
 * comment at its top, so a reader of the file knows `krew install --manifest` alone cannot download it.
 */
export function krewManifest({version, homepage, baseUrl, description, archives, placeholder = false}) {
	const platforms = archives.map(({target, file, sha256, bin}) => `  - selector:
      matchLabels:
        os: ${q(target.os)}
        arch: ${q(target.arch)}
    uri: ${q(`${baseUrl}/${file}`)}
    sha256: ${q(sha256)}
    bin: ${q(bin)}
    files:
      - from: ${q(bin)}
        to: "."
      - from: "LICENSE"
        to: "."
`).join('');
	const note = placeholder
		? `# The uri values are placeholders: nothing is uploaded at ${baseUrl} yet. Install with
#   kubectl krew install --manifest=planwatch.yaml --archive=<the archive for your platform>
# or build the release again with npm run release -- --base-url URL (where the archives will be).
`
		: '';
	return `${note}apiVersion: krew.googlecontainertools.github.com/v1alpha2
kind: Plugin
metadata:
  name: planwatch
spec:
  version: ${q(`v${version}`)}
  homepage: ${q(homepage)}
  shortDescription: "Watch KUDO and Kanister plans live as trees"
  description: ${q(`${description}. planwatch draws the plan → phase → step trees of KUDO Instances and Kanister ActionSets with live ` +
  	'status and timers, waits for them to finish (--wait, --timeout, exit codes for scripts), and prints them as plain text or JSON. Try ' +
  	'it without a cluster: kubectl planwatch demo')}
  platforms:
${platforms}`;
}
