#!/usr/bin/env bash
# Checks the relative Markdown links of README.md and docs/*.md: every `[text](target)` outside
# fenced code blocks and code spans must name a file or folder that exists (relative to the linking
# file's folder; a leading / is the repository root), and a `#anchor` into a Markdown file (or
# into the linking file itself) must match one of its headings. Links to http://, https:// and
# mailto: are not checked.
#
# Anchors follow GitHub's rule for ATX headings (`# Title`): the heading's text, lowercased, with
# every character other than a letter, a digit, `_`, `-` or a space dropped, and each space turned
# into `-`; a repeated heading gets `-1`, `-2`... Setext headings and HTML anchors are not read.
#
# Usage: tests/docs/check_links.sh REPO_ROOT
# Prints each dead link as `file:line: target` and exits 1, or `N links checked, all alive` and
# exits 0. Exit 2: bad usage.
set -uo pipefail
shopt -s extglob nullglob

if [ $# -ne 1 ] || [ ! -d "$1" ]; then
  echo "usage: $0 REPO_ROOT" >&2
  exit 2
fi
cd "$1" || exit 2
# Letters beyond ASCII (é, µ) are letters to the slug rule; C.UTF-8 ships with every glibc.
export LC_ALL=C.UTF-8

link_re='\[([^]]*)\]\(([^)]*)\)'
heading_re='^ {0,3}#{1,6}[[:space:]]+(.*)$'
fence_re='^ {0,3}(```|~~~)'

# True when line $1 opens or closes a fenced code block, or lies inside one. The fence now open
# (``` or ~~~, empty outside) is kept in the caller's variable `fence`, one per file read.
fenced() {
  if [[ $1 =~ $fence_re ]]; then
    if [ -z "$fence" ]; then
      fence=${BASH_REMATCH[1]}
    elif [ "${BASH_REMATCH[1]}" = "$fence" ]; then
      fence=""
    fi
    return 0
  fi
  [ -n "$fence" ]
}

# The anchors of Markdown file $1, one per line.
anchors_of() {
  local line text slug fence=""
  local -A seen=()
  while IFS= read -r line || [ -n "$line" ]; do
    line=${line%$'\r'}
    fenced "$line" && continue
    [[ $line =~ $heading_re ]] || continue
    text=${BASH_REMATCH[1]}
    # A closing run of #, links reduced to their text, surrounding blanks trimmed.
    text=$(sed -E 's/[[:space:]]+#+[[:space:]]*$//; s/\[([^]]*)\]\([^)]*\)/\1/g;
                   s/^[[:space:]]+//; s/[[:space:]]+$//' <<<"$text")
    slug=$(sed -E 's/[^[:alnum:]_ -]//g; s/ /-/g' <<<"${text,,}")
    if [ -n "${seen[$slug]+set}" ]; then
      seen[$slug]=$((seen[$slug] + 1))
      printf '%s-%s\n' "$slug" "${seen[$slug]}"
    else
      seen[$slug]=0
      printf '%s\n' "$slug"
    fi
  done <"$1"
}

declare -A anchors=()  # Markdown file -> its anchors, one per line
has_anchor() {
  if [ -z "${anchors[$1]+set}" ]; then
    anchors[$1]=$(anchors_of "$1")
  fi
  grep -qxF -- "$2" <<<"${anchors[$1]}"
}

checked=0
dead=0
for file in README.md docs/*.md; do
  [ -f "$file" ] || continue
  dir=$(dirname "$file")
  number=0
  fence=""
  while IFS= read -r line || [ -n "$line" ]; do
    number=$((number + 1))
    line=${line%$'\r'}
    fenced "$line" && continue
    # Code spans hold examples, not links.
    rest=${line//\`*([^\`])\`/}
    while [[ $rest =~ $link_re ]]; do
      rest=${rest#*"${BASH_REMATCH[0]}"}
      target=${BASH_REMATCH[2]}
      # [text](<path> "title"): the path alone.
      target=${target##+([[:space:]])}
      if [[ $target == \<* ]]; then
        target=${target#<}
        target=${target%%>*}
      else
        target=${target%%[[:space:]]*}
      fi
      case "$target" in
        http://* | https://* | mailto:*) continue ;;
      esac
      checked=$((checked + 1))
      path=${target%%#*}
      anchor=""
      [[ $target == *'#'* ]] && anchor=${target#*#}
      if [ -z "$path" ]; then
        resolved=$file
      elif [[ $path == /* ]]; then
        resolved=.$path
      else
        resolved=$dir/$path
      fi
      alive=1
      if [ ! -e "$resolved" ]; then
        alive=0
      elif [ -n "$anchor" ] && [ -f "$resolved" ] && [[ ${resolved,,} == *.md ]]; then
        has_anchor "$resolved" "$anchor" || alive=0
      fi
      if [ "$alive" -eq 0 ]; then
        printf '%s:%s: %s\n' "$file" "$number" "$target"
        dead=$((dead + 1))
      fi
    done
  done <"$file"
done

if [ "$dead" -gt 0 ]; then
  exit 1
fi
echo "$checked links checked, all alive"
