/**
 * What runs first inside the sandbox, as root of the sandbox's own user namespace (its capabilities
 * reach nothing outside it): it mounts the workspace as an overlay (the workspace read-only below, the
 * command's writes in the scratch folder above), hides the overlay's layers, then runs the command as
 * uid 1000 of a nested user namespace with every capability dropped and `no_new_privs`, under the
 * process limits ($3…, for `prlimit`), with no stdin. Once the command has ended it kills what the
 * command left running and writes to fd 3 (closed for the command) `exit:<status>` and every path of
 * the workspace as the command left it, each NUL-terminated. Arguments: $1 working directory, $2 the
 * command, then the `prlimit` options.
 */
export const ENTRY_SCRIPT = `set -u
mkdir -p /scratch/upper /scratch/work || exit 121
mount -t overlay overlay -o lowerdir=/lower,upperdir=/scratch/upper,workdir=/scratch/work,userxattr \\
  /home/gem/user-data || exit 122
mount -t tmpfs -o size=4k,mode=0 none /scratch && mount -t tmpfs -o size=4k,mode=0 none /lower || exit 123
cwd=$1
command=$2
shift 2
mkdir -p "$cwd" && cd "$cwd" || exit 124
unshare --user --map-user=1000 --map-group=1000 -- \\
  setpriv --inh-caps=-all --ambient-caps=-all --bounding-set=-all --no-new-privs -- \\
  prlimit "$@" -- /bin/sh -c "$command" </dev/null 3>&-
status=$?
kill -KILL -1 2>/dev/null
printf 'exit:%s\\0' "$status" >&3
cd /home/gem/user-data && find . -mindepth 1 -printf '%P\\0' >&3
exit 0
`;

/** Exit statuses of the entry script before the command ran: where setting up the sandbox failed. */
export const SETUP_FAILURES: Readonly<Record<number, string>> = {
  121: 'could not make the overlay folders',
  122: 'could not mount the workspace overlay (overlayfs in a user namespace)',
  123: 'could not hide the overlay layers',
  124: 'could not enter the working directory',
};
