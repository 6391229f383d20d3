# bash completion for photometa(1). Installed by `make install` into
# $(PREFIX)/share/bash-completion/completions/photometa.
_photometa() {
    local cur prev words cword
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    local commands="inspect suggest dismiss forget watch thumbnail"
    commands="$commands recent serve status"
    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
        return
    fi
    case "$prev" in
        --tz) COMPREPLY=($(compgen -W "UTC $(cd /usr/share/zoneinfo 2>/dev/null && find . -type f | sed 's|^\./||')" -- "$cur")); return ;;
        --screenshots) COMPREPLY=($(compgen -W "include exclude only" -- "$cur")); return ;;
        --kind) COMPREPLY=($(compgen -W "photo screenshot livePhoto gif video" -- "$cur")); return ;;
        -n) return ;;
        --state|--files-from) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --out) COMPREPLY=($(compgen -d -- "$cur")); return ;;
        --format) COMPREPLY=($(compgen -W "png jpeg webp" -- "$cur")); return ;;
        --size|--quality|--max-pixels) return ;;
        --within|--now|--until|--poll|--exec|--wait|--profile|--exclude) return ;;
    esac
    local opts
    case "${COMP_WORDS[1]}" in
        inspect) opts="-r --recursive --json --jsonl --tz --files-from -0 --null --keep-going --exclude --no-sidecars -q --quiet --help" ;;
        suggest) opts="--within --now --tz --screenshots --videos --peek --explain --json --state --profile --exclude --no-index --no-service --standing --wait --thumbnail --thumbnail-mode -q --quiet --help" ;;
        serve) opts="--exclude --no-index --jsonl --within --tz --screenshots --videos --state --profile --exec --no-suggest --thumbnail --thumbnail-mode --help" ;;
        status) opts="--json --help" ;;
        recent) opts="-n --kind --json --jsonl --tz --exclude --no-index --no-service --thumbnail --thumbnail-mode -q --quiet --help" ;;
        dismiss) opts="--until --tz --state --profile --help" ;;
        forget) opts="--state --profile --help" ;;
        watch) opts="--jsonl --within --tz --screenshots --videos --state --profile --exclude --exec --poll --no-suggest --thumbnail --thumbnail-mode --help" ;;
        thumbnail) opts="--size --fit --fill --crop --out --output --format --quality --fast --no-cache --max-pixels --json --jsonl --explain --help" ;;
    esac
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    elif [ "${COMP_WORDS[1]}" = inspect ] || [ "${COMP_WORDS[1]}" = thumbnail ]; then
        COMPREPLY=($(compgen -f -- "$cur"))
    else
        COMPREPLY=($(compgen -d -- "$cur"))
    fi
}
complete -F _photometa photometa
