_ari_cli_completion() {
    local IFS=$'
'
    COMPREPLY=( $( env COMP_WORDS="${COMP_WORDS[*]}" \
                   COMP_CWORD=$COMP_CWORD \
                   _ARI_CLI_COMPLETE=complete_bash $1 ) )
    return 0
}

complete -o default -F _ari_cli_completion ari-cli
