# A one-node Slurm cluster on this machine, for tests: munged, slurmctld and slurmd started
# directly (no systemd), as root, with every file in one folder. Sourced, not run:
#
#   source scripts/slurm/one_node_cluster.sh
#   slurm_up "$(mktemp -d)"     # installs Debian's packages if missing, starts the daemons
#   sbatch ...                  # SLURM_CONF is exported, so every Slurm command finds it
#   slurm_down                  # stops the daemons slurm_up started (call it from a trap)
#
# The node is this host (`hostname -s`) at 127.0.0.1 with the CPUs and memory `slurmd -C`
# reads off it; one partition `test`, the default.

# Installs munge and Slurm from Debian's packages when a command is missing.
slurm_install() {
    if command -v munged >/dev/null && command -v slurmctld >/dev/null &&
        command -v slurmd >/dev/null && command -v sbatch >/dev/null; then
        return 0
    fi
    echo "== installing Slurm and munge (Debian's packages)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurmctld slurmd slurm-client munge \
        >/dev/null
}

# Writes slurm.conf for this host into $SLURM_DIR.
slurm_write_conf() {
    local node
    # `slurmd -C` prints this node's line: NodeName=... CPUs=... RealMemory=...
    node=$(slurmd -C | head -n 1)
    cat >"$SLURM_DIR/slurm.conf" <<EOF
ClusterName=hooke-test
SlurmctldHost=$(hostname -s)(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=${SLURM_TEST_CTLD_PORT:-6817}
SlurmdPort=${SLURM_TEST_SLURMD_PORT:-6818}
AuthType=auth/munge
AuthInfo=socket=$SLURM_DIR/munge.socket
CredType=cred/munge
StateSaveLocation=$SLURM_DIR/state
SlurmdSpoolDir=$SLURM_DIR/spool
SlurmctldPidFile=$SLURM_DIR/slurmctld.pid
SlurmdPidFile=$SLURM_DIR/slurmd.pid
SlurmctldLogFile=$SLURM_DIR/slurmctld.log
SlurmdLogFile=$SLURM_DIR/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
SlurmdTimeout=60
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
}

# Starts munged, slurmctld and slurmd with their files in $1, then waits (at most 60 s) until
# the node is idle. Exports SLURM_CONF and SLURM_DIR.
slurm_up() {
    export SLURM_DIR=$1
    export SLURM_CONF=$SLURM_DIR/slurm.conf
    slurm_install
    mkdir -p "$SLURM_DIR/state" "$SLURM_DIR/spool"
    chmod 700 "$SLURM_DIR"
    dd if=/dev/urandom of="$SLURM_DIR/munge.key" bs=1024 count=1 status=none
    chmod 400 "$SLURM_DIR/munge.key"
    slurm_write_conf
    munged --force --key-file="$SLURM_DIR/munge.key" --socket="$SLURM_DIR/munge.socket" \
        --pid-file="$SLURM_DIR/munged.pid" --log-file="$SLURM_DIR/munged.log" \
        --seed-file="$SLURM_DIR/munged.seed"
    slurmctld -f "$SLURM_CONF"
    slurmd -f "$SLURM_CONF"
    local t
    for ((t = 0; t < 60; t++)); do
        if [ "$(sinfo -h -N -o %t 2>/dev/null)" = idle ]; then
            echo "== Slurm up: $(sinfo -h -N -o '%N %c CPUs %m MB %t')"
            return 0
        fi
        sleep 1
    done
    echo "== the Slurm node did not become idle in 60 s" >&2
    slurm_logs
    return 1
}

# Prints the daemons' logs (for a failure).
slurm_logs() {
    local log
    for log in "$SLURM_DIR"/{munged,slurmctld,slurmd}.log; do
        [ -f "$log" ] && { echo "--- $log"; tail -n 40 "$log"; }
    done >&2
}

# Stops the daemons slurm_up started (by their pid files), each given 10 s before SIGKILL.
slurm_down() {
    [ -n "${SLURM_DIR:-}" ] || return 0
    local name pid t
    for name in slurmd slurmctld munged; do
        [ -f "$SLURM_DIR/$name.pid" ] || continue
        pid=$(cat "$SLURM_DIR/$name.pid")
        kill "$pid" 2>/dev/null || continue
        for ((t = 0; t < 20; t++)); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.5
        done
        kill -9 "$pid" 2>/dev/null || true
    done
}
