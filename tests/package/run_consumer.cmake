# Installs precis into a scratch prefix and builds a tiny consumer against it with
# find_package(precis), then runs the consumer.
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/lib
                  -DPRECIS_BUILD_TESTS=OFF -DPRECIS_BUILD_EXAMPLES=OFF
                  -DPRECIS_WITH_C_FRONTEND=OFF -DCMAKE_INSTALL_PREFIX=${WORK_DIR}/prefix
                  -DCMAKE_CXX_COMPILER=${CXX}
                COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${CMAKE_COMMAND} --install ${WORK_DIR}/lib COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/package/consumer -B ${WORK_DIR}/app
                  -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCMAKE_CXX_COMPILER=${CXX}
                COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/app COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${WORK_DIR}/app/consumer RESULT_VARIABLE rc OUTPUT_VARIABLE out)
message(STATUS "consumer said: ${out}")
if(NOT rc EQUAL 0 OR NOT out MATCHES "SAFE")
  message(FATAL_ERROR "consumer failed (exit ${rc})")
endif()
