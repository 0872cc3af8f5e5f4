# A Slurm cluster on this machine, for tests: munged, slurmctld and one slurmd per node started
# directly (no systemd), as root, with every file in one folder. Sourced, not run:
#
#   source scripts/slurm/local_cluster.sh
#   slurm_up "$(mktemp -d)" [NODES]   # installs Debian's packages if missing, starts daemons
#   sbatch ...                        # SLURM_CONF is exported: every Slurm command finds it
#   slurm_down                        # stops the daemons slurm_up started (call it in a trap)
#
# One node (the default) is this host (`hostname -s`) at 127.0.0.1 with the CPUs and memory
# `slurmd -C` reads off it. NODES > 1 are node1, node2, ... , each a slurmd of its own on this
# host (Debian's Slurm is built with multiple-slurmd support) with a port of its own, this
# host's CPUs and a share of its memory: a multi-node allocation on one machine, so `srun` on
# another node of the job really starts a step through another slurmd. One partition, `test`.

# Installs munge and Slurm from Debian's packages when a command is missing.
slurm_install() {
    if command -v munged >/dev/null && command -v slurmctld >/dev/null &&
        command -v slurmd >/dev/null && command -v sbatch >/dev/null; then
        return 0
    fi
    echo "== installing Slurm and munge (Debian's packages)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        slurmctld slurmd slurm-client munge >/dev/null
}

# The node line(s) of slurm.conf for $SLURM_NODES nodes.
slurm_node_lines() {
    local host node hardware memory ports
    host=$(hostname -s)
    # `slurmd -C` prints this host's line: NodeName=... CPUs=... RealMemory=...
    node=$(slurmd -C | head -n 1)
    if [ "$SLURM_NODES" -eq 1 ]; then
        echo "$node NodeAddr=127.0.0.1 State=UNKNOWN"
        return
    fi
    memory=$(echo "$node" | sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p')
    hardware=$(echo "$node" | sed 's/^NodeName=[^ ]* //; s/RealMemory=[0-9]*//')
    ports="[$((SLURMD_PORT))-$((SLURMD_PORT + SLURM_NODES - 1))]"
    echo "NodeName=node[1-$SLURM_NODES] NodeHostname=$host NodeAddr=127.0.0.1 Port=$ports" \
        "$hardware RealMemory=$((memory / SLURM_NODES)) State=UNKNOWN"
}

# Writes slurm.conf into $SLURM_DIR.
slurm_write_conf() {
    cat >"$SLURM_DIR/slurm.conf" <<EOF
ClusterName=hooke-test
SlurmctldHost=$(hostname -s)(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$SLURMCTLD_PORT
SlurmdPort=$SLURMD_PORT
AuthType=auth/munge
AuthInfo=socket=$SLURM_DIR/munge.socket
CredType=cred/munge
StateSaveLocation=$SLURM_DIR/state
SlurmdSpoolDir=$SLURM_DIR/spool/%n
SlurmctldPidFile=$SLURM_DIR/slurmctld.pid
SlurmdPidFile=$SLURM_DIR/slurmd-%n.pid
SlurmctldLogFile=$SLURM_DIR/slurmctld.log
SlurmdLogFile=$SLURM_DIR/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
$(slurm_node_lines)
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
}

# Starts munged, slurmctld and the slurmd of each of $2 nodes (default 1) with their files in
# $1, then waits (at most 60 s) until every node is idle. Exports SLURM_CONF and SLURM_DIR.
# SLURMCTLD_PORT and SLURMD_PORT (default 6817, 6818 and up) move the daemons' ports.
slurm_up() {
    export SLURM_DIR=$1
    export SLURM_CONF=$SLURM_DIR/slurm.conf
    SLURM_NODES=${2:-1}
    SLURMCTLD_PORT=${SLURMCTLD_PORT:-6817}
    SLURMD_PORT=${SLURMD_PORT:-6818}
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
    if [ "$SLURM_NODES" -eq 1 ]; then
        mkdir -p "$SLURM_DIR/spool/$(hostname -s)"
        slurmd -f "$SLURM_CONF"
    else
        local n
        for ((n = 1; n <= SLURM_NODES; n++)); do
            mkdir -p "$SLURM_DIR/spool/node$n"
            slurmd -f "$SLURM_CONF" -N "node$n"
        done
    fi
    local deadline=$((SECONDS + 60))
    while ((SECONDS < deadline)); do
        if [ "$(timeout 10 sinfo -h -N -t idle -o %N 2>/dev/null | wc -l)" -eq "$SLURM_NODES" ]; then
            echo "== Slurm up: $(sinfo -h -N -o '%N %c CPUs %m MB %t' | paste -sd ';')"
            return 0
        fi
        sleep 1
    done
    echo "== the Slurm nodes were not all idle after 60 s" >&2
    slurm_logs
    return 1
}

# Prints the daemons' logs (for a failure).
slurm_logs() {
    local log
    for log in "$SLURM_DIR"/*.log; do
        [ -f "$log" ] && { echo "--- $log"; tail -n 40 "$log"; }
    done >&2
}

# Stops the daemons slurm_up started (by their pid files), each given 10 s before SIGKILL.
slurm_down() {
    [ -n "${SLURM_DIR:-}" ] || return 0
    local file pid t
    for file in "$SLURM_DIR"/slurmd*.pid "$SLURM_DIR/slurmctld.pid" "$SLURM_DIR/munged.pid"; do
        [ -f "$file" ] || continue
        pid=$(cat "$file")
        kill "$pid" 2>/dev/null || continue
        for ((t = 0; t < 20; t++)); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.5
        done
        kill -9 "$pid" 2>/dev/null || true
    done
}
