# Sourced by deploy/test.sh: names the stages of a long command and times them. `stage NAME`
# closes the stage running (printing how long it took) and opens the next; when the command ends,
# passed or failed, the table of every stage's duration is printed, so each log shows where the
# time went.
STAGE_NAMES=()
STAGE_SECONDS=()
STAGE_START=$SECONDS
STAGE_TOTAL_START=$SECONDS

stage_close() {
  local n=${#STAGE_NAMES[@]}
  if [ "$n" -gt "${#STAGE_SECONDS[@]}" ]; then
    STAGE_SECONDS+=($((SECONDS - STAGE_START)))
    printf '=== %s: %d s\n' "${STAGE_NAMES[n - 1]}" "${STAGE_SECONDS[n - 1]}"
  fi
}

stage() {
  stage_close
  STAGE_NAMES+=("$1")
  STAGE_START=$SECONDS
  printf '=== %s\n' "$1"
}

stage_report() {
  local rc=$? i
  stage_close
  printf '\n=== Where the time went (%s)\n' "$([ "$rc" -eq 0 ] && echo passed || echo "failed, status $rc")"
  for i in "${!STAGE_NAMES[@]}"; do
    printf '%6d s  %s\n' "${STAGE_SECONDS[i]}" "${STAGE_NAMES[i]}"
  done
  printf '%6d s  in all\n' $((SECONDS - STAGE_TOTAL_START))
}
trap stage_report EXIT
