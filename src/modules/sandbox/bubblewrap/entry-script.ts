/** What mounts the workspace overlay and hides its layers (`mount -a -T`, one program for the three). */
export const SANDBOX_FSTAB = [
  'overlay /home/gem/user-data overlay lowerdir=/lower,upperdir=/scratch/upper,workdir=/scratch/work,userxattr 0 0',
  'none /scratch tmpfs size=4k,mode=0 0 0',
  'none /lower tmpfs size=4k,mode=0 0 0',
  '',
].join('\n');

/**
 * What runs first inside the sandbox, as root of the sandbox's own user namespace (its capabilities
 * reach nothing outside it): it mounts the workspace as an overlay (the workspace read-only below, the
 * command's writes in the scratch folder above) and hides both layers, then runs the command as uid
 * 1000 of a nested user namespace. A non-root uid's `exec` leaves it no capability, and bubblewrap's
 * `no_new_privs` means none can be gained. The command has no stdin and no fd 3. Once it has ended,
 * what it left running is killed and fd 3 gets `exit:<status>` and every path of the workspace as the
 * command left it, each NUL-terminated. Arguments: $1 working directory, $2 the command.
 */
export const ENTRY_SCRIPT = `set -u
mount -a -T /etc/sandbox-fstab || exit 122
cd "$1" || exit 124
unshare --user --map-user=1000 --map-group=1000 -- /bin/sh -c "$2" </dev/null 3>&-
status=$?
kill -KILL -1 2>/dev/null
printf 'exit:%s\\0' "$status" >&3
cd /home/gem/user-data && find . -mindepth 1 -printf '%P\\0' >&3
exit 0
`;

/** Exit statuses of the entry script before the command ran: where setting up the sandbox failed. */
export const SETUP_FAILURES: Readonly<Record<number, string>> = {
  122: 'could not mount the workspace overlay (overlayfs in a user namespace)',
  124: 'could not enter the working directory',
};
