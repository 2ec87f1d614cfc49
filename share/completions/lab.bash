#!/bin/bash

__lab_cursor_index_in_current_word() {
    local remaining="${COMP_LINE}"

    local word
    for word in "${COMP_WORDS[@]::COMP_CWORD}"; do
        remaining="${remaining##*([[:space:]])"${word}"*([[:space:]])}"
    done

    local -ir index="$((COMP_POINT - ${#COMP_LINE} + ${#remaining}))"
    if [[ "${index}" -le 0 ]]; then
        printf 0
    else
        printf %s "${index}"
    fi
}

# positional arguments:
#
# - 1: the current (sub)command's count of positional arguments
#
# required variables:
#
# - repeating_flags: the repeating flags that the current (sub)command can accept
# - non_repeating_flags: the non-repeating flags that the current (sub)command can accept
# - repeating_options: the repeating options that the current (sub)command can accept
# - non_repeating_options: the non-repeating options that the current (sub)command can accept
# - positional_number: value ignored
# - unparsed_words: unparsed words from the current command line
#
# modified variables:
#
# - non_repeating_flags: remove flags for this (sub)command that are already on the command line
# - non_repeating_options: remove options for this (sub)command that are already on the command line
# - positional_number: set to the current positional number
# - unparsed_words: remove all flags, options, and option values for this (sub)command
__lab_offer_flags_options() {
    local -ir positional_count="${1}"
    positional_number=0

    local was_flag_option_terminator_seen=false
    local is_parsing_option_value=false

    local -ar unparsed_word_indices=("${!unparsed_words[@]}")
    local -i word_index
    for word_index in "${unparsed_word_indices[@]}"; do
        if "${is_parsing_option_value}"; then
            # This word is an option value:
            # Reset marker for next word iff not currently the last word
            [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]] && is_parsing_option_value=false
            unset "unparsed_words[${word_index}]"
            # Do not process this word as a flag or an option
            continue
        fi

        local word="${unparsed_words["${word_index}"]}"
        if ! "${was_flag_option_terminator_seen}"; then
            case "${word}" in
            --)
                unset "unparsed_words[${word_index}]"
                # by itself -- is a flag/option terminator, but if it is the last word, it is the start of a completion
                if [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]]; then
                    was_flag_option_terminator_seen=true
                fi
                continue
                ;;
            -*)
                # ${word} is a flag or an option
                # If ${word} is an option, mark that the next word to be parsed is an option value
                local option
                for option in "${repeating_options[@]}" "${non_repeating_options[@]}"; do
                    [[ "${word}" = "${option}" ]] && is_parsing_option_value=true && break
                done

                # Remove ${word} from ${non_repeating_flags} or ${non_repeating_options} so it isn't offered again
                local not_found=true
                local -i index
                for index in "${!non_repeating_flags[@]}"; do
                    if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                        unset "non_repeating_flags[${index}]"
                        non_repeating_flags=("${non_repeating_flags[@]}")
                        not_found=false
                        break
                    fi
                done
                if "${not_found}"; then
                    for index in "${!non_repeating_flags[@]}"; do
                        if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                            unset "non_repeating_flags[${index}]"
                            non_repeating_flags=("${non_repeating_flags[@]}")
                            break
                        fi
                    done
                fi
                unset "unparsed_words[${word_index}]"
                continue
                ;;
            esac
        fi

        # ${word} is neither a flag, nor an option, nor an option value
        if [[ "${positional_number}" -lt "${positional_count}" || "${positional_count}" -lt 0 ]]; then
            # ${word} is a positional
            ((positional_number++))
            unset "unparsed_words[${word_index}]"
        else
            if [[ -z "${word}" ]]; then
                # Could be completing a flag, option, or subcommand
                positional_number=-1
            else
                # ${word} is a subcommand or invalid, so stop processing this (sub)command
                positional_number=-2
            fi
            break
        fi
    done

    unparsed_words=("${unparsed_words[@]}")

    if\
        ! "${was_flag_option_terminator_seen}"\
        && ! "${is_parsing_option_value}"\
        && [[ ("${cur}" = -* && "${positional_number}" -ge 0) || "${positional_number}" -eq -1 ]]
    then
        COMPREPLY+=($(compgen -W "${repeating_flags[*]} ${non_repeating_flags[*]} ${repeating_options[*]} ${non_repeating_options[*]}" -- "${cur}"))
    fi
}

__lab_add_completions() {
    local completion
    while IFS='' read -r completion; do
        COMPREPLY+=("${completion}")
    done < <(IFS=$'\n' compgen "${@}" -- "${cur}")
}

__lab_custom_complete() {
    if [[ -n "${cur}" || -z ${COMP_WORDS[${COMP_CWORD}]} || "${COMP_LINE:${COMP_POINT}:1}" != ' ' ]]; then
        local -ar words=("${COMP_WORDS[@]}")
    else
        local -ar words=("${COMP_WORDS[@]::${COMP_CWORD}}" '' "${COMP_WORDS[@]:${COMP_CWORD}}")
    fi

    "${COMP_WORDS[0]}" "${@}" "${words[@]}"
}

_lab() {
    local state
    state="$(shopt -p;shopt -po)"
    trap "${state//$'\n'/;}" RETURN
    shopt -s extglob
    set +o history +o posix

    local -xr SAP_SHELL=bash
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(IFS='.';printf %s "${BASH_VERSINFO[*]}")"
    local -r SAP_SHELL_VERSION

    local -r cur="${2}"
    local -r prev="${3}"

    local -i positional_number
    local -a unparsed_words=("${COMP_WORDS[@]:1:${COMP_CWORD}}")

    local -a repeating_flags=()
    local -a non_repeating_flags=(--version -h --help)
    local -a repeating_options=()
    local -a non_repeating_options=()
    __lab_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    console|assignments|experiments|explain|force|unforce|reset|update|stabilize|report|events|overrides|check|serve|help)
        # Offer subcommand argument completions
        "_lab_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'console assignments experiments explain force unforce reset update stabilize report events overrides check serve help' -- "${cur}"))
        ;;
    esac
}

_lab_console() {
    repeating_flags=()
    non_repeating_flags=(--serve --version -h --help)
    repeating_options=(--catalog --attribute --allow-host --allow-origin --as)
    non_repeating_options=(--state --growthbook --client-key --decryption-key --refresh-interval --host --port --tokens --connect --token)
    __lab_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--catalog')
        return
        ;;
    '--state')
        return
        ;;
    '--growthbook')
        return
        ;;
    '--client-key')
        return
        ;;
    '--decryption-key')
        return
        ;;
    '--attribute')
        return
        ;;
    '--refresh-interval')
        return
        ;;
    '--host')
        return
        ;;
    '--port')
        return
        ;;
    '--allow-host')
        return
        ;;
    '--allow-origin')
        return
        ;;
    '--tokens')
        return
        ;;
    '--connect')
        return
        ;;
    '--token')
        return
        ;;
    '--as')
        return
        ;;
    esac
}

_lab_assignments() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=(--catalog --attribute)
    non_repeating_options=(--state --growthbook --client-key --decryption-key)
    __lab_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--catalog')
        return
        ;;
    '--state')
        return
        ;;
    '--growthbook')
        return
        ;;
    '--client-key')
        return
        ;;
    '--decryption-key')
        return
        ;;
    '--attribute')
        return
        ;;
    esac
}

_lab_experiments() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=(--catalog --attribute)
    non_repeating_options=(--state --growthbook --client-key --decryption-key --connect --token)
    __lab_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--catalog')
        return
        ;;
    '--state')
        return
        ;;
    '--growthbook')
        return
        ;;
    '--client-key')
        return
        ;;
    '--decryption-key')
        return
        ;;
    '--attribute')
        return
        ;;
    '--connect')
        return
        ;;
    '--token')
        return
        ;;
    esac
}

_lab_explain() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=(--catalog --attribute --for)
    non_repeating_options=(--state --growthbook --client-key --decryption-key --source --connect --token)
    __lab_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--catalog')
        return
        ;;
    '--state')
        return
        ;;
    '--growthbook')
        return
        ;;
    '--client-key')
        return
        ;;
    '--decryption-key')
        return
        ;;
    '--attribute')
        return
        ;;
    '--source')
        return
        ;;
    '--for')
        return
        ;;
    '--connect')
        return
        ;;
    '--token')
        return
        ;;
    esac
}

_lab_force() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=(--catalog --attribute --for)
    non_repeating_options=(--state --growthbook --client-key --decryption-key --source --connect --token)
    __lab_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--catalog')
        return
        ;;
    '--state')
        return
        ;;
    '--growthbook')
        return
        ;;
    '--client-key')
        return
        ;;
    '--decryption-key')
        return
        ;;
    '--attribute')
        return
        ;;
    '--source')
        return
        ;;
    '--for')
        return
        ;;
    '--connect')
        return
        ;;
    '--token')
        return
        ;;
    esac
}

_lab_unforce() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=(--catalog --attribute --for)
    non_repeating_options=(--state --growthbook --client-key --decryption-key --source --connect --token)
    __lab_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--catalog')
        return
        ;;
    '--state')
        return
        ;;
    '--growthbook')
        return
        ;;
    '--client-key')
        return
        ;;
    '--decryption-key')
        return
        ;;
    '--attribute')
        return
        ;;
    '--source')
        return
        ;;
    '--for')
        return
        ;;
    '--connect')
        return
        ;;
    '--token')
        return
        ;;
    esac
}

_lab_reset() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=(--catalog --attribute --for)
    non_repeating_options=(--state --growthbook --client-key --decryption-key --source --connect --token)
    __lab_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--catalog')
        return
        ;;
    '--state')
        return
        ;;
    '--growthbook')
        return
        ;;
    '--client-key')
        return
        ;;
    '--decryption-key')
        return
        ;;
    '--attribute')
        return
        ;;
    '--source')
        return
        ;;
    '--for')
        return
        ;;
    '--connect')
        return
        ;;
    '--token')
        return
        ;;
    esac
}

_lab_update() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=(--catalog --attribute)
    non_repeating_options=(--state --growthbook --client-key --decryption-key)
    __lab_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--catalog')
        return
        ;;
    '--state')
        return
        ;;
    '--growthbook')
        return
        ;;
    '--client-key')
        return
        ;;
    '--decryption-key')
        return
        ;;
    '--attribute')
        return
        ;;
    esac
}

_lab_stabilize() {
    repeating_flags=()
    non_repeating_flags=(--undo --json --version -h --help)
    repeating_options=(--catalog --attribute)
    non_repeating_options=(--state --growthbook --client-key --decryption-key)
    __lab_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--catalog')
        return
        ;;
    '--state')
        return
        ;;
    '--growthbook')
        return
        ;;
    '--client-key')
        return
        ;;
    '--decryption-key')
        return
        ;;
    '--attribute')
        return
        ;;
    esac
}

_lab_report() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=(--catalog --attribute)
    non_repeating_options=(--state --growthbook --client-key --decryption-key --reason)
    __lab_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--catalog')
        return
        ;;
    '--state')
        return
        ;;
    '--growthbook')
        return
        ;;
    '--client-key')
        return
        ;;
    '--decryption-key')
        return
        ;;
    '--attribute')
        return
        ;;
    '--reason')
        return
        ;;
    esac
}

_lab_events() {
    repeating_flags=()
    non_repeating_flags=(--json --follow --summary --version -h --help)
    repeating_options=(--catalog --attribute --reason --experiment)
    non_repeating_options=(--state --growthbook --client-key --decryption-key --format --limit --since --connect --token)
    __lab_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--catalog')
        return
        ;;
    '--state')
        return
        ;;
    '--growthbook')
        return
        ;;
    '--client-key')
        return
        ;;
    '--decryption-key')
        return
        ;;
    '--attribute')
        return
        ;;
    '--format')
        __lab_add_completions -W 'table'$'\n''json'$'\n''jsonl'$'\n''csv'
        return
        ;;
    '--limit')
        return
        ;;
    '--since')
        return
        ;;
    '--reason')
        return
        ;;
    '--experiment')
        return
        ;;
    '--connect')
        return
        ;;
    '--token')
        return
        ;;
    esac
}

_lab_overrides() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __lab_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    export|import)
        # Offer subcommand argument completions
        "_lab_overrides_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'export import' -- "${cur}"))
        ;;
    esac
}

_lab_overrides_export() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=(--catalog --attribute)
    non_repeating_options=(--state --growthbook --client-key --decryption-key --connect --token)
    __lab_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--catalog')
        return
        ;;
    '--state')
        return
        ;;
    '--growthbook')
        return
        ;;
    '--client-key')
        return
        ;;
    '--decryption-key')
        return
        ;;
    '--attribute')
        return
        ;;
    '--connect')
        return
        ;;
    '--token')
        return
        ;;
    esac
}

_lab_overrides_import() {
    repeating_flags=()
    non_repeating_flags=(--replace --json --version -h --help)
    repeating_options=(--catalog --attribute)
    non_repeating_options=(--state --growthbook --client-key --decryption-key --connect --token)
    __lab_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--catalog')
        return
        ;;
    '--state')
        return
        ;;
    '--growthbook')
        return
        ;;
    '--client-key')
        return
        ;;
    '--decryption-key')
        return
        ;;
    '--attribute')
        return
        ;;
    '--connect')
        return
        ;;
    '--token')
        return
        ;;
    esac
}

_lab_check() {
    repeating_flags=()
    non_repeating_flags=(--json --warnings-as-errors --version -h --help)
    repeating_options=()
    non_repeating_options=(--growthbook)
    __lab_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--growthbook')
        return
        ;;
    esac
}

_lab_serve() {
    repeating_flags=()
    non_repeating_flags=(--verbose --version -h --help)
    repeating_options=(--catalog --attribute --allow-host --allow-origin)
    non_repeating_options=(--state --growthbook --client-key --decryption-key --tokens --host --port --refresh-interval)
    __lab_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--catalog')
        return
        ;;
    '--state')
        return
        ;;
    '--growthbook')
        return
        ;;
    '--client-key')
        return
        ;;
    '--decryption-key')
        return
        ;;
    '--attribute')
        return
        ;;
    '--allow-host')
        return
        ;;
    '--allow-origin')
        return
        ;;
    '--tokens')
        return
        ;;
    '--host')
        return
        ;;
    '--port')
        return
        ;;
    '--refresh-interval')
        return
        ;;
    esac
}

_lab_help() {
    repeating_flags=()
    non_repeating_flags=(--version)
    repeating_options=()
    non_repeating_options=()
    __lab_offer_flags_options -1
}

complete -o filenames -F _lab lab