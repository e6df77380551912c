/**
 * `planwatch --help` (the whole reference) and the short pages of `planwatch help COMMAND` / `planwatch COMMAND
 * --help`, as kubectl has one page per command. Static text, so --help stays fast; every line fits 80 columns
 * (test/cli/parse-args-habits.test.ts). The README's commands and docs/ repeat the gist.
 */

/** The commands that have a page of their own (`planwatch help demo`, `planwatch demo --help`). */
export const helpTopics = ['demo', 'replay', 'completion', 'version', 'help'] as const;
export type HelpTopic = (typeof helpTopics)[number];

export const helpText = `planwatch — live plan trees for KUDO Instances and Kanister ActionSets

Usage
  planwatch -f FILE|- [-f FILE ...] [--once] [-o tui|plain|json]
  planwatch [instance/NAME | actionset/NAME ... | instances | actionsets]
            [-n NS | -A] [-l SEL] [--kubeconfig PATH]
            [--context NAME ... | --all-contexts]
            [--wait [--plan NAME] [--timeout DURATION] [--extend DURATION]]
  planwatch demo [--scenario NAME] [--speed N] [--loop]
  planwatch replay FILE [--speed N] [--from DURATION|TIME] [--wait ...]
  planwatch version [-o json]     planwatch completion bash|zsh|fish
  planwatch help [COMMAND]        planwatch COMMAND --help: one command's page

Input
  -f, --file FILE       Read objects from a YAML or JSON file (multi-document or
                        kind: List); repeatable; - reads stdin. Instances,
                        ActionSets, OperatorVersions, Blueprints and Events are
                        used; other kinds are ignored. A recording (--record)
                        draws its last state.
  instance/NAME         Watch a KUDO Instance (also: inst/, instances/,
                        instances.kudo.dev/).
  actionset/NAME        Watch a Kanister ActionSet (also: as/, actionsets/,
                        actionsets.cr.kanister.io/). No target: every Instance
                        and ActionSet in the namespace.
  instances, actionsets One kind only (kubectl's names: inst, as,
                        instances.kudo.dev, ...), e.g. planwatch actionsets -A;
                        instances NAME ... are targets of it.
  --kubeconfig PATH     Kubeconfig file (default: $KUBECONFIG, ~/.kube/config).
  --context NAME        Kubeconfig context (default: the current one). Repeat it
                        to watch several clusters in one list (a CONTEXT column;
                        CONTEXT:instance/NAME is a target in one context,
                        instance/NAME one in each).
  --all-contexts        Every context of the kubeconfig.
  -n, --namespace NS    Namespace (default: the context's namespace, else
                        default).
  -A, --all-namespaces  Every namespace.
  -l, --selector SEL    Label selector, e.g. app=mysql.
  -w, --watch           Keep watching (the default; accepted, as kubectl's).
  --request-timeout D   Give up on one list request after D (5s, 1m, or plain
                        seconds; 0 = none; default 60s). Watches are not cut.
  -v, --v N             Verbosity, as kubectl's: 6 prints one line per HTTP
                        request (method, URL, status, ms) on stderr (under the
                        TUI, when it exits); 9 also stack traces of unexpected
                        errors (as PLANWATCH_DEBUG=1 does).

Waiting
  --wait                Exit when the targets finish: 0 succeeded, 1 failed.
  --plan NAME           With --wait: wait for this KUDO plan (its run triggered
                        after the wait began, else its latest run).
  --timeout DURATION    Give up after DURATION (45s, 5m, 1h30m; at least 1s;
                        0 = never) and exit 3.
  --extend DURATION     How much + adds to the timeout in the TUI (default 5m;
                        at least 1s).
  --notify MODE         Desktop notification (OSC 9 and 777) and bell in the TUI
                        when a wait ends, or, while watching, when an object
                        fails: auto (only after 30s; default), always, never.
                        Never in plain or json output.

History (ETA)
  --no-history          Neither read nor write the history of finished runs that
                        gives running nodes their ETA (~2m left; overdue 1m).
                        It is kept in $XDG_STATE_HOME/planwatch/history.ndjson
                        (~/.local/state/planwatch/).

Output
  -o, --output MODE     tui    interactive tree (default when stdout is a
                               terminal and TERM is not dumb; needs a
                               terminal unless --once)
                        plain  fully expanded tree as text, no cursor movement
                               (default otherwise); while watching: one line
                               per status change, then the final tree
                        json   {"objects":[{kind, namespace, name, outcome,
                               summary, tree}]}; while watching: NDJSON
                               lines of type snapshot and transition
  --once                Draw once and exit (default for plain and json with -f);
                        against a cluster, give up with exit 4 after 30s
                        without a first list.
  --no-color            No colour (also when NO_COLOR is set or stdout is not a
                        terminal).
  --ascii               ASCII tree lines and icons instead of box drawing.
  --utc                 Clock times in UTC (default: this machine's time zone,
                        named in the header).
  -h, --help            Show this help (COMMAND --help: that command's page).
  --version             Show the version (-o json: with commit, Node.js version,
                        platform).

Demo (a simulated cluster: no kubeconfig; --wait, --timeout and + work)
  --scenario NAME       tour (default), mysql-deploy, zookeeper-deploy,
                        kudo-fatal, kudo-uid-race, mysql-backup,
                        backup-defer-failed, postgres-restore-failed,
                        restore-defer-both-failed, actionset-start-failed,
                        why-stuck, many
  --speed N             Play N times faster (0.5 = half speed; default 1).
  --loop                Start over when the scenario ends (for a booth).

Record and replay
  --record FILE         Cluster or demo: append everything seen to FILE
                        (NDJSON, sanitized, one line per change with its
                        receive time; a new file; safe to tail -f).
  replay FILE           Play a recording in the same views; --wait exits as it
                        would have.
  --speed N             Replay N times faster (default 1).
  --from WHEN           Start at a duration after the start (2m) or a time
                        (11:02:30).
  In the TUI: space pauses, [ and ] jump to the previous / next change.

Keys (tui)
  ↑ ↓  j k        move                ← → h l    collapse / expand
  space  enter    toggle              x          expand / collapse all
  g  G            top / bottom        e          events of the selected object
  + -             extend the timeout / take it back (with --wait)
  /  f            filter by name / failing only (list)
  y  Y            send the tree / the object's JSON to the terminal's clipboard
  s  n            save tree + JSON to ./planwatch-*.txt|json / notifications
  ?               help                q  esc  ctrl+c   quit

Exit codes
  0    nothing failed (also: a live view without --wait that you quit)
  1    something failed
  2    usage, input or output error (e.g. disk full)
  3    timed out
  4    cluster error
  130  interrupted
  141  stdout closed (e.g. | head) before the run had an outcome
  Several contexts: the worst code any context reached, in this order (141
  worst, 0 best).

Examples
  kubectl get instance mysql-instance -o yaml | planwatch -f -
  planwatch -f actionset.yaml -f blueprint.yaml -o plain
  planwatch instance/mysql-instance --wait --timeout 10m
  planwatch demo --scenario postgres-restore-failed --wait
  planwatch instance/mysql-instance --wait --record deploy.ndjson
  planwatch replay deploy.ndjson --speed 10
`;

const demoHelp = `planwatch demo — a simulated cluster playing KUDO and Kanister plans

Usage
  planwatch demo [--scenario NAME] [--speed N] [--loop] [--wait ...] [-o ...]

Flags
  --scenario NAME       tour (default), mysql-deploy, zookeeper-deploy,
                        kudo-fatal, kudo-uid-race, mysql-backup,
                        backup-defer-failed, postgres-restore-failed,
                        restore-defer-both-failed, actionset-start-failed,
                        why-stuck, many
  --speed N             Play N times faster (0.5 = half speed; default 1).
  --loop                Start over when the scenario ends (for a booth).
  --wait                Exit when every object of the scenario finishes:
                        0 succeeded, 1 failed (--timeout, --extend as usual).
  --record FILE         Append everything seen to FILE, for planwatch replay.
  -o, --output MODE     tui (in a terminal), plain or json.

No kubeconfig is read. Without --wait, q ends the demo with exit code 0.

Examples
  planwatch demo
  planwatch demo --scenario postgres-restore-failed --wait --timeout 20s
  planwatch demo --scenario many --speed 4 -o plain

planwatch --help lists every flag.
`;

const replayHelp = `planwatch replay — play a recording made with --record

Usage
  planwatch replay FILE [--speed N] [--from DURATION|TIME] [--wait ...] [-o ...]

Flags
  --speed N             Replay N times faster (default 1).
  --from WHEN           Start at a duration after the start (2m) or a time
                        (11:02:30, 2026-11-30T11:02:30Z).
  --wait                Exit as the recorded run would have (0, 1, 3; 130 when
                        the recording ends first).
  -o, --output MODE     tui (in a terminal), plain or json.

Keys (tui): space pauses, [ and ] jump to the previous / next change.

Examples
  planwatch instance/mysql-instance --wait --record deploy.ndjson
  planwatch replay deploy.ndjson --speed 10
  planwatch replay deploy.ndjson --from 2m -o plain

planwatch --help lists every flag.
`;

const completionHelp = `planwatch completion — print a shell completion script

Usage
  planwatch completion bash|zsh|fish

Load it
  bash   source <(planwatch completion bash)   (needs the bash-completion
         package for kubectl planwatch <TAB>)
  zsh    source <(planwatch completion zsh)    (after compinit)
  fish   planwatch completion fish | source

It completes flags, their values (--output, --scenario, --context, --plan,
-n from the cluster), targets and kinds; kubectl 1.26+ completes
kubectl planwatch <TAB> through kubectl_complete-planwatch.
`;

const versionHelp = `planwatch version — print the version

Usage
  planwatch version [-o json]     planwatch --version [-o json]

  -o json               With the commit, Node.js version, platform and whether
                        this is a standalone executable (for a bug report).
`;

const helpHelp = `planwatch help — show help

Usage
  planwatch help                  every flag, key and exit code
  planwatch help COMMAND          one command's page
  planwatch COMMAND --help        the same

Commands: ${helpTopics.join(', ')}.
`;

const topicHelp: Readonly<Record<HelpTopic, string>> = {
	demo: demoHelp,
	replay: replayHelp,
	completion: completionHelp,
	version: versionHelp,
	help: helpHelp,
};

/** The page of one command, or the whole reference. */
export function helpFor(topic: HelpTopic | undefined): string {
	return topic === undefined ? helpText : topicHelp[topic];
}
