/** `planwatch --help`: the usage documentation (the README's commands and docs/ repeat it). */
export const helpText = `planwatch — live plan trees for KUDO Instances and Kanister ActionSets

Usage
  planwatch -f FILE|- [-f FILE ...] [--once] [-o tui|plain|json] [--no-color] [--ascii]
  planwatch [instance/NAME | actionset/NAME ... | instances | actionsets] [-n NS | -A] [-l SEL]
            [--kubeconfig PATH] [--context NAME ... | --all-contexts] [--wait [--plan NAME] [--timeout DURATION] [--extend DURATION]]
  planwatch demo [--scenario NAME] [--speed N] [--loop]
  planwatch replay FILE [--speed N] [--from DURATION|TIME] [--wait ...] [-o ...]
  planwatch version [-o json]         planwatch completion bash|zsh|fish

Input
  -f, --file FILE       Read objects from a YAML or JSON file (multi-document or kind: List);
                        repeatable; - reads stdin. Instances, ActionSets, OperatorVersions,
                        Blueprints and Events are used; other kinds are ignored. A recording
                        (--record) draws its last state.
  instance/NAME         Watch a KUDO Instance (also: inst/, instances/, instances.kudo.dev/).
  actionset/NAME        Watch a Kanister ActionSet (also: as/, actionsets/, actionsets.cr.kanister.io/).
                        No target: every Instance and ActionSet in the namespace.
  instances, actionsets One kind only (kubectl's names: inst, as, instances.kudo.dev, ...),
                        e.g. planwatch actionsets -A; instances NAME ... are targets of it.
  --kubeconfig PATH     Kubeconfig file (default: $KUBECONFIG, then ~/.kube/config).
  --context NAME        Kubeconfig context (default: the current context). Repeat it to watch
                        several clusters in one list (a CONTEXT column; CONTEXT:instance/NAME
                        is a target in one context, instance/NAME one in each).
  --all-contexts        Every context of the kubeconfig.
  -n, --namespace NS    Namespace (default: the context's namespace, else default).
  -A, --all-namespaces  Every namespace.
  -l, --selector SEL    Label selector, e.g. app=mysql.

Waiting
  --wait                Exit when the targets finish: 0 succeeded, 1 failed.
  --plan NAME           With --wait: wait for this KUDO plan (its run triggered after the wait
                        began, else its latest run).
  --timeout DURATION    Give up after DURATION (45s, 5m, 1h30m; at least 1s; 0 = never) and exit 3.
  --extend DURATION     How much + adds to the timeout in the TUI (default 5m; at least 1s).
  --notify MODE         Desktop notification (OSC 9 and 777) and bell in the TUI when a wait ends,
                        or, while watching, when an object fails: auto (only after 30s; default),
                        always, never. Never in plain or json output.

History (ETA)
  --no-history          Neither read nor write the history of finished runs that gives running
                        nodes their ETA (~2m left; overdue 1m). It is kept in
                        $XDG_STATE_HOME/planwatch/history.ndjson (~/.local/state/planwatch/).

Output
  -o, --output MODE     tui    interactive tree (default when stdout is a terminal and TERM is
                               not dumb; needs a terminal unless --once)
                        plain  fully expanded tree as text, no cursor movement (default otherwise);
                               while watching: one line per status change, then the final tree
                        json   {"objects":[{kind, namespace, name, outcome, summary, tree}]};
                               while watching: NDJSON lines of type snapshot and transition
  --once                Draw once and exit (default for plain and json with -f); against a
                        cluster, give up with exit 4 after 30s without a first list.
  --no-color            No colour (also when NO_COLOR is set or stdout is not a terminal).
  --ascii               ASCII tree lines and icons instead of box drawing and symbols.
  --utc                 Clock times in UTC (default: this machine's time zone, named in the header).
  -h, --help            Show this help.
  --version             Show the version (-o json: with commit, Node.js version, platform).

Demo (a simulated cluster: no kubeconfig needed; --wait, --timeout and + work as with a cluster)
  --scenario NAME       tour (default), mysql-deploy, zookeeper-deploy, kudo-fatal, kudo-uid-race,
                        mysql-backup, backup-defer-failed, postgres-restore-failed,
                        restore-defer-both-failed, actionset-start-failed, many
  --speed N             Play N times faster (0.5 = half speed; default 1).
  --loop                Start over when the scenario ends (for a booth or a screen share).

Record and replay
  --record FILE         Cluster or demo: append everything seen to FILE (NDJSON, sanitized, one
                        line per change with its receive time; a new file; safe to tail -f).
  replay FILE           Play a recording in the same views; --wait exits as it would have.
  --speed N             Replay N times faster (default 1).
  --from WHEN           Start at a duration after the start (2m) or a time (11:02:30).
                        In the TUI: space pauses, [ and ] jump to the previous / next change.

Keys (tui)
  ↑ ↓  j k        move                ← → h l    collapse / expand
  space  enter    toggle              x          expand / collapse all
  g  G            top / bottom        e          events of the selected object
  + -             extend the timeout / take it back (with --wait)
  /  f            filter by name / failing only (list)
  y  Y            copy the tree / the JSON of the object (OSC 52 clipboard)
  s  n            save tree + JSON to ./planwatch-*.txt|json / notifications on or off
  ?               help                q  esc  ctrl+c   quit

Exit codes
  0    nothing failed
  1    something failed
  2    usage, input or output error (e.g. disk full)
  3    timed out
  4    cluster error
  130  interrupted
  141  stdout closed (e.g. | head) before the run had an outcome
  Several contexts: the worst code any context reached, in this order (141 worst, 0 best).

Examples
  kubectl get instance mysql-instance -o yaml | planwatch -f -
  planwatch -f actionset.yaml -f blueprint.yaml -o plain
  planwatch instance/mysql-instance --wait --timeout 10m
  planwatch demo --scenario postgres-restore-failed --wait
  planwatch instance/mysql-instance --wait --record deploy.ndjson
  planwatch replay deploy.ndjson --speed 10
`;
